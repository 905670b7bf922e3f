import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { DataKeyring } from '../../personal-data/data-keyring';
import { WebhookEndpoint } from './outgoing-webhook-endpoint.entity';

const NOT_UNDER = `(secret_encrypted NOT LIKE $1
  OR (previous_secret_encrypted IS NOT NULL AND previous_secret_encrypted NOT LIKE $1))`;
const REKEY_SQL = `SELECT id, secret_encrypted AS secret, previous_secret_encrypted AS previous
  FROM webhook_endpoints WHERE ${NOT_UNDER} ORDER BY id LIMIT $2 FOR UPDATE SKIP LOCKED`;
const NOT_REKEYED_SQL = `SELECT count(*)::int AS n FROM webhook_endpoints WHERE ${NOT_UNDER}`;

/** The endpoints' signing secrets under the current master key (`data:rekey`, docs/privacy.md). */
@Injectable()
export class WebhookSecretRekey {
  constructor(
    @InjectRepository(WebhookEndpoint) private readonly endpoints: Repository<WebhookEndpoint>,
    private readonly keyring: DataKeyring,
  ) {}

  /**
   * `data:rekey`: rewraps up to `limit` endpoints' secrets (current and previous) not yet under the
   * current master key, in one transaction; rows locked, so a rotation waits and a second rekey
   * skips them. Returns how many secrets it rewrapped (0: none left).
   */
  async rekeySecrets(limit: number): Promise<number> {
    return this.endpoints.manager.transaction(async (m) => {
      type Row = { id: string; secret: string; previous: string | null };
      const rows = await m.query<Row[]>(REKEY_SQL, [this.keyring.currentKeyPattern, limit]);
      let rewrapped = 0;
      for (const row of rows) {
        const [secret, previous] = [row.secret, row.previous].map((s) => {
          if (s === null || this.keyring.isCurrent(s)) return s;
          rewrapped++;
          return this.keyring.wrap(this.keyring.unwrap(s));
        });
        await m.update(WebhookEndpoint, row.id, {
          secretEncrypted: secret!,
          previousSecretEncrypted: previous,
        });
      }
      return rewrapped;
    });
  }

  /** Endpoints with a secret not under the current key, as committed (rekey's last check). */
  async secretsNotRekeyed(manager: EntityManager): Promise<number> {
    const [{ n }] = await manager.query<{ n: number }[]>(NOT_REKEYED_SQL, [
      this.keyring.currentKeyPattern,
    ]);
    return n;
  }
}
