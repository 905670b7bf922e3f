import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { AuditLog } from '../common/logging/audit-log';

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  eventId: string;
  endpointId: string;
  attempts: number;
  manual: boolean;
  payload: string;
  url: string;
  orgId: string;
  enabled: boolean;
  secretEncrypted: string;
  previousSecretEncrypted: string | null;
  previousSecretExpiresAt: Date | null;
}

/** How an attempt ended, as the store writes it. */
export interface AttemptRecord {
  ok: boolean;
  statusCode: number | null;
  error: string | null;
  /** null: no further attempt (delivered, or failed for good). */
  nextAttemptAt: Date | null;
  /** 410 Gone: the receiver asked us to stop. */
  gone: boolean;
}

const CLAIM_SQL = `WITH due AS (
    SELECT event_id, endpoint_id FROM webhook_deliveries
    WHERE status = 'pending' AND next_attempt_at <= $1 AND (claimed_until IS NULL OR claimed_until < $1)
    ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED)
  UPDATE webhook_deliveries d SET claimed_until = $3, claim_token = $4
  FROM due WHERE d.event_id = due.event_id AND d.endpoint_id = due.endpoint_id`;
const CLAIMED_SQL = `SELECT d.event_id AS "eventId", d.endpoint_id AS "endpointId", d.attempts,
    d.manual, e.payload, w.url, w.org_id AS "orgId", w.enabled,
    w.secret_encrypted AS "secretEncrypted", w.previous_secret_encrypted AS "previousSecretEncrypted",
    w.previous_secret_expires_at AS "previousSecretExpiresAt"
  FROM webhook_deliveries d JOIN outgoing_events e ON e.id = d.event_id
  JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.claim_token = $1`;
const FINISH_SQL = `UPDATE webhook_deliveries SET status = $3::varchar, attempts = attempts + 1,
    last_status_code = $4, last_error = $5, next_attempt_at = $6, delivered_at = $7,
    claimed_until = NULL, claim_token = NULL, manual = manual AND $3::varchar = 'pending'
  WHERE event_id = $1 AND endpoint_id = $2 AND claim_token = $8 RETURNING 1`;
const SETTLE_SQL = `UPDATE outgoing_events SET settled_at = $2 WHERE id = $1 AND settled_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE event_id = $1 AND status <> 'delivered')`;
const FAILING_SQL = `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2)
  WHERE id = $1 RETURNING failing_since AS "failingSince", enabled`;

/** The delivery table's statements: claim, record an attempt, hand back, disable an endpoint. */
@Injectable()
export class WebhookDeliveryStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditLog,
  ) {}

  /** Due deliveries no one holds, leased to `token` until `leaseUntil`; others skip them. */
  async claim(
    now: Date,
    limit: number,
    leaseUntil: Date,
    token: string,
  ): Promise<ClaimedDelivery[]> {
    await this.dataSource.query(CLAIM_SQL, [now, limit, leaseUntil, token]);
    return this.dataSource.query<ClaimedDelivery[]>(CLAIMED_SQL, [token]);
  }

  /** Hands deliveries back untouched (shutdown): another attempt takes them at once. */
  async release(token: string): Promise<void> {
    await this.dataSource.query(
      'UPDATE webhook_deliveries SET claimed_until = NULL, claim_token = NULL WHERE claim_token = $1',
      [token],
    );
  }

  /** Records the attempt, unless the lease was lost meanwhile (then another instance owns it). */
  finish(
    d: ClaimedDelivery,
    token: string,
    now: Date,
    result: AttemptRecord,
    disableAfterMs: number,
  ): Promise<void> {
    return this.dataSource.transaction(async (m) => {
      const status = result.ok ? 'delivered' : result.nextAttemptAt ? 'pending' : 'failed';
      // On PostgreSQL, TypeORM answers an UPDATE with [rows, affected].
      const [, kept] = await m.query<[unknown[], number]>(FINISH_SQL, [
        d.eventId,
        d.endpointId,
        status,
        result.statusCode,
        result.error,
        result.nextAttemptAt,
        result.ok ? now : null,
        token,
      ]);
      if (kept === 0) return;
      if (result.ok) {
        await m.query('UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1', [
          d.endpointId,
        ]);
        await m.query(SETTLE_SQL, [d.eventId, now]);
        return;
      }
      if (result.gone) {
        await this.disable(m, d.endpointId, d.orgId, 'the receiver answered 410 Gone');
        return;
      }
      const [[endpoint]] = await m.query<[{ failingSince: Date; enabled: boolean }[], number]>(
        FAILING_SQL,
        [d.endpointId, now],
      );
      const failingMs = now.getTime() - new Date(endpoint.failingSince).getTime();
      if (endpoint.enabled && failingMs >= disableAfterMs) {
        const days = Math.round(disableAfterMs / 86_400_000);
        await this.disable(m, d.endpointId, d.orgId, `every delivery failed for ${days} days`);
      }
    });
  }

  /**
   * Disables the endpoint and fails what it still had pending: enabling it again sends only new
   * events. Deliveries a person asked for (test, retry) stay.
   */
  async disable(m: EntityManager, endpointId: string, orgId: string, reason: string | null) {
    const [, changed] = await m.query<[unknown[], number]>(
      'UPDATE webhook_endpoints SET enabled = false WHERE id = $1 AND enabled',
      [endpointId],
    );
    await m.query(
      `UPDATE webhook_deliveries SET status = 'failed', next_attempt_at = NULL,
        last_error = COALESCE(last_error, 'endpoint disabled')
        WHERE endpoint_id = $1 AND status = 'pending' AND NOT manual AND claim_token IS NULL`,
      [endpointId],
    );
    if (changed > 0 && reason) {
      this.audit.record('webhook_endpoint_disabled', `webhook endpoint disabled: ${reason}`, {
        actor: 'system',
        endpoint_id: endpointId,
        org_id: orgId,
        reason,
      });
    }
  }
}
