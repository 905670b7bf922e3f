import type { INestApplicationContext } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { cliActor } from '../audit/audit-event.types';
import { AuditTrail } from '../audit/audit-trail.service';
import { CliCommand } from '../common/cli/cli-command';
import { WebhookSecretRekey } from '../outgoing-webhook/endpoints/webhook-secret-rekey.service';
import { SubscriptionModule } from '../subscription/subscription.module';
import { SubscriptionSealing } from '../subscription/care-data/subscription-sealing.service';
import { DataKeyring } from '../personal-data/data-keyring';
import { PersonalDataCliModule } from './personal-data-cli.module';
import { PersonalData } from '../personal-data/personal-data.service';

const BATCH = 500;

export interface RekeyReport {
  key_id: string;
  data_keys: number;
  webhook_secrets: number;
  /**
   * The key check (and search key): `rewrapped` now, `already_current` (an earlier run did it), or
   * `older_key_in_use` while something is still under an older key (another rekey's open batch).
   */
  key_check: KeyCheckOutcome;
}

type KeyCheckOutcome = 'rewrapped' | 'already_current' | 'older_key_in_use';

/** Runs `batch` until it rewraps nothing; each batch is its own transaction (resumable). */
async function drain(batch: (limit: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (let n = await batch(BATCH); n > 0; n = await batch(BATCH)) total += n;
  return total;
}

/**
 * Everything the master key wraps, under the current key (docs/privacy.md, "Keys"): the data
 * keys, the webhook secrets, and last the key check, so a boot with only the new key passes once
 * nothing is left under an old one.
 */
async function rekey(app: INestApplicationContext): Promise<RekeyReport> {
  const keyring = app.get(DataKeyring);
  const personalData = app.get(PersonalData);
  const endpoints = app.get(WebhookSecretRekey);
  const dataKeys = await drain((n) => personalData.rekeyBatch(n));
  const secrets = await drain((n) => endpoints.rekeySecrets(n));
  const keyCheck = await app.get(DataSource).transaction(async (m): Promise<KeyCheckOutcome> => {
    const left = (await personalData.notRekeyed(m)) + (await endpoints.secretsNotRekeyed(m));
    if (left > 0) return 'older_key_in_use';
    return (await keyring.rewrapCheck(m)) ? 'rewrapped' : 'already_current';
  });
  const report = {
    key_id: keyring.currentKeyId,
    data_keys: dataKeys,
    webhook_secrets: secrets,
    key_check: keyCheck,
  };
  await app.get(AuditTrail).append({ action: 'data.rekeyed', actor: cliActor(), details: report });
  return report;
}

const REKEY_HELP = `The key rotation's step (docs/privacy.md, "Rotating the key"): with the new key as
DATA_ENCRYPTION_KEY and the old ones in DATA_ENCRYPTION_PREVIOUS_KEYS, rewraps every data key and
webhook secret under the new key, then the key check and the search key. Nothing is decrypted but
the keys themselves; the records' fields stay as they are.

It works in batches of ${BATCH}, each its own transaction: stopped, it can be run again and goes on
where it was. On PostgreSQL the servers may keep running; on the embedded database
(no DATABASE_URL) stop the server first, as the data directory has one user at a time.

Prints {"key_id","data_keys","webhook_secrets","key_check"}: the current key's id, what this run
rewrapped, and the key check: "rewrapped" or "already_current" (nothing is left under an older key:
DATA_ENCRYPTION_PREVIOUS_KEYS can go), or "older_key_in_use" (another rekey holds a batch, or
an instance still writes under an older key): run it again.`;

export const personalDataCommands: Record<string, CliCommand> = {
  'data:rekey': {
    summary:
      'Rewrap every data key and webhook secret under DATA_ENCRYPTION_KEY, then the key check',
    usage: 'data:rekey',
    description: REKEY_HELP,
    options: {},
    module: PersonalDataCliModule,
    prepare: () => Promise.resolve(rekey),
  },
  'data:seal': {
    summary: "Seal what an earlier release stored in plain text (the boot's upgrade step)",
    usage: 'data:seal',
    options: {},
    module: SubscriptionModule,
    prepare: () => Promise.resolve((app) => app.get(SubscriptionSealing).sealAllSinceBoot()),
  },
};
