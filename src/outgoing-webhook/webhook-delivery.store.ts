import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { AuditLog } from '../common/logging/audit-log';
import { type DeliveryStatus, sendable, TEST_EVENT_TYPE } from './outgoing-webhook.types';

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  eventId: string;
  endpointId: string;
  attempts: number;
  type: string;
  payload: string;
  url: string;
  orgId: string;
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

const TEST = `'${TEST_EVENT_TYPE}'`;
/**
 * Per endpoint, the oldest due rows no one holds, as many as it has free slots ($5 less the live
 * leases of every instance): an index probe or two per endpoint, however deep one endpoint's
 * backlog (a window over every due row cost 90 ms at 10 000). A disabled endpoint is sent nothing
 * but its test calls: its other deliveries are not claimed (they stay as they are).
 */
const CANDIDATES_SQL = `SELECT c.event_id, c.endpoint_id, c.next_attempt_at FROM webhook_endpoints w
  CROSS JOIN LATERAL (SELECT d.event_id, d.endpoint_id, d.next_attempt_at FROM webhook_deliveries d
    WHERE d.endpoint_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= $1
      AND (d.claimed_until IS NULL OR d.claimed_until < $1) AND (w.enabled
        OR (SELECT e.type FROM outgoing_events e WHERE e.id = d.event_id) = ${TEST})
    ORDER BY d.next_attempt_at
    LIMIT GREATEST(0, $5 - (SELECT count(*) FROM webhook_deliveries b
      WHERE b.endpoint_id = w.id AND b.claimed_until IS NOT NULL AND b.claimed_until >= $1))) c`;
/**
 * Ranked before locking, then locked oldest first: a row another claim holds is skipped, not
 * waited for, and one that changed since (claimed, or put off) is left. Two claims at the same
 * moment rank the same rows, so the second skips them; the cap can be passed only in a race with
 * a lease ending (soft across instances). The claim consumes a retry's request (`manual`), so a
 * retry that comes while this attempt is in flight is seen by FINISH_SQL. Only the delivery rows
 * are locked.
 */
const CLAIM_SQL = `WITH due AS (
    SELECT d.event_id, d.endpoint_id FROM (${CANDIDATES_SQL}) r
    JOIN webhook_deliveries d ON d.event_id = r.event_id AND d.endpoint_id = r.endpoint_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= $1
      AND (d.claimed_until IS NULL OR d.claimed_until < $1)
    ORDER BY r.next_attempt_at LIMIT $2 FOR UPDATE OF d SKIP LOCKED)
  UPDATE webhook_deliveries d SET claimed_until = $3, claim_token = $4, manual = false
  FROM due WHERE d.event_id = due.event_id AND d.endpoint_id = due.endpoint_id`;
const CLAIMED_SQL = `SELECT d.event_id AS "eventId", d.endpoint_id AS "endpointId", d.attempts,
    e.type, e.payload, w.url, w.org_id AS "orgId",
    w.secret_encrypted AS "secretEncrypted", w.previous_secret_encrypted AS "previousSecretEncrypted",
    w.previous_secret_expires_at AS "previousSecretExpiresAt"
  FROM webhook_deliveries d JOIN outgoing_events e ON e.id = d.event_id
  JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.claim_token = $1`;
/**
 * Records the attempt if the lease is still ours. A retry asked during the attempt (`manual`
 * set again) keeps the delivery pending and due at the retry's time, so one attempt follows the
 * other, never beside it; $9 false (a disabled endpoint) drops that retry.
 */
const FINISH_SQL = `UPDATE webhook_deliveries SET
    status = CASE WHEN manual AND $9 THEN 'pending' ELSE $3::varchar END,
    next_attempt_at = CASE WHEN manual AND $9 THEN next_attempt_at ELSE $6 END,
    attempts = attempts + 1, last_status_code = $4, last_error = $5, delivered_at = $7,
    claimed_until = NULL, claim_token = NULL, manual = manual AND $9
  WHERE event_id = $1 AND endpoint_id = $2 AND claim_token = $8 RETURNING status`;
const SETTLE_SQL = `UPDATE outgoing_events SET settled_at = $2 WHERE id = $1 AND settled_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE event_id = $1 AND status <> 'delivered')`;
const FAILING_SQL = `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2)
  WHERE id = $1 RETURNING failing_since AS "failingSince"`;
/**
 * What a disabled endpoint had pending is failed (not sent on enabling again), except its test
 * calls; attempts in flight (a live lease) are left to FINISH, which sees the endpoint disabled.
 */
const FAIL_PENDING_SQL = `UPDATE webhook_deliveries d SET status = 'failed', next_attempt_at = NULL,
    manual = false, claimed_until = NULL, claim_token = NULL,
    last_error = COALESCE(d.last_error, 'endpoint disabled')
  FROM outgoing_events e
  WHERE d.endpoint_id = $1 AND d.status = 'pending' AND e.id = d.event_id AND e.type <> ${TEST}
    AND (d.claimed_until IS NULL OR d.claimed_until < $2)`;

/** The delivery table's statements: claim, record an attempt, hand back, disable an endpoint. */
@Injectable()
export class WebhookDeliveryStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditLog,
  ) {}

  /**
   * Due deliveries no one holds, leased to `token` until `leaseUntil`; others skip them. At most
   * `perEndpoint` in flight to one endpoint, across instances.
   */
  async claim(
    now: Date,
    limit: number,
    leaseUntil: Date,
    token: string,
    perEndpoint: number,
  ): Promise<ClaimedDelivery[]> {
    // On PostgreSQL, TypeORM answers an UPDATE with [rows, affected].
    const params = [now, limit, leaseUntil, token, perEndpoint];
    const [, claimed] = await this.dataSource.query<[unknown[], number]>(CLAIM_SQL, params);
    // Nothing leased to this fresh token (every idle poll): the read could only find nothing.
    if (claimed === 0) return [];
    return this.dataSource.query<ClaimedDelivery[]>(CLAIMED_SQL, [token]);
  }

  /**
   * Hands one delivery back untouched (shutdown): another attempt takes it at once. Only this
   * one: the others of its claim may have an answer they are still recording.
   */
  async release(d: ClaimedDelivery, token: string): Promise<void> {
    await this.dataSource.query(
      `UPDATE webhook_deliveries SET claimed_until = NULL, claim_token = NULL
        WHERE event_id = $1 AND endpoint_id = $2 AND claim_token = $3`,
      [d.eventId, d.endpointId, token],
    );
  }

  /**
   * Records the attempt, unless the lease was lost meanwhile (then another instance owns it);
   * returns the delivery's status as recorded, or null when it was not. Locks are taken endpoint
   * first, then delivery, everywhere (here, disable, retry): no deadlock.
   */
  finish(
    d: ClaimedDelivery,
    token: string,
    now: Date,
    result: AttemptRecord,
    disableAfterMs: number,
  ): Promise<DeliveryStatus | null> {
    return this.dataSource.transaction(async (m) => {
      if (result.ok) {
        // Only when it was failing: the common case takes no lock on the endpoint's row.
        await m.query(
          'UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL',
          [d.endpointId],
        );
        const recorded = await this.record(m, d, token, 'delivered', result, now, true);
        if (recorded) await m.query(SETTLE_SQL, [d.eventId, now]);
        return recorded;
      }
      // Disabled while this attempt was in flight: no further attempt (FAIL_PENDING_SQL's rule).
      const [endpoint] = await m.query<{ enabled: boolean }[]>(
        'SELECT enabled FROM webhook_endpoints WHERE id = $1 FOR NO KEY UPDATE',
        [d.endpointId],
      );
      const stillSendable = sendable(Boolean(endpoint?.enabled), d.type);
      const next = stillSendable ? result.nextAttemptAt : null;
      const attempt = { ...result, nextAttemptAt: next };
      const kept = await this.record(
        m,
        d,
        token,
        next ? 'pending' : 'failed',
        attempt,
        now,
        stillSendable,
      );
      if (!kept) return null;
      // Disabling fails what is pending, this one too unless it is a test call.
      const afterDisabling = sendable(false, d.type) ? kept : 'failed';
      if (result.gone) {
        await this.disable(m, d.endpointId, d.orgId, 'the receiver answered 410 Gone', now);
        return afterDisabling;
      }
      const [[failing]] = await m.query<[{ failingSince: Date }[], number]>(FAILING_SQL, [
        d.endpointId,
        now,
      ]);
      const failingMs = now.getTime() - new Date(failing.failingSince).getTime();
      if (endpoint?.enabled && failingMs >= disableAfterMs) {
        const days = Math.round(disableAfterMs / 86_400_000);
        await this.disable(m, d.endpointId, d.orgId, `every delivery failed for ${days} days`, now);
        return afterDisabling;
      }
      return kept;
    });
  }

  /** FINISH_SQL; null when the lease was lost (nothing written). */
  private async record(
    m: EntityManager,
    d: ClaimedDelivery,
    token: string,
    status: 'delivered' | 'pending' | 'failed',
    result: AttemptRecord,
    now: Date,
    retryKept: boolean,
  ): Promise<DeliveryStatus | null> {
    // On PostgreSQL, TypeORM answers an UPDATE with [rows, affected].
    const [rows] = await m.query<[{ status: DeliveryStatus }[], number]>(FINISH_SQL, [
      d.eventId,
      d.endpointId,
      status,
      result.statusCode,
      result.error,
      result.nextAttemptAt,
      result.ok ? now : null,
      token,
      retryKept,
    ]);
    return rows[0]?.status ?? null;
  }

  /**
   * Disables the endpoint and fails what it still had pending: enabling it again sends only new
   * events. Its test calls stay. `reason` null: a person did it (their own audit line).
   */
  async disable(
    m: EntityManager,
    endpointId: string,
    orgId: string,
    reason: string | null,
    now: Date,
  ): Promise<void> {
    const [, changed] = await m.query<[unknown[], number]>(
      'UPDATE webhook_endpoints SET enabled = false WHERE id = $1 AND enabled',
      [endpointId],
    );
    await this.failPending(m, endpointId, now);
    if (changed > 0 && reason) {
      this.audit.record('webhook_endpoint_disabled', `webhook endpoint disabled: ${reason}`, {
        actor: 'system',
        endpoint_id: endpointId,
        org_id: orgId,
        reason,
      });
    }
  }

  /**
   * Fails what is pending for the endpoint but its test calls. On disabling; and on enabling
   * again, for a delivery a change committed beside the disabling (its transaction saw the
   * endpoint enabled): enabling sends only new events.
   */
  async failPending(m: EntityManager, endpointId: string, now: Date): Promise<void> {
    await m.query(FAIL_PENDING_SQL, [endpointId, now]);
  }
}
