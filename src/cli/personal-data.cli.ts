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
  /** Whether the key check (and search key) was rewrapped now: false when it already was, or
   * when something is still under an older key (another rekey's open batch): run it again. */
  key_check: boolean;
}

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
  const keyCheck = await app.get(DataSource).transaction(async (m) => {
    const left = (await personalData.notRekeyed(m)) + (await endpoints.secretsNotRekeyed(m));
    return left === 0 && keyring.rewrapCheck(m);
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

export const personalDataCommands: Record<string, CliCommand> = {
  'data:rekey': {
    summary:
      'Rewrap every data key and webhook secret under DATA_ENCRYPTION_KEY, then the key check',
    usage: 'data:rekey',
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
