import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type { DataSource, EntityManager } from 'typeorm';
import { AuditLog } from '../../common/logging/audit-log';
import { AuditTrail } from '../../audit/audit-trail.service';
import { SYSTEM_ACTOR } from '../../audit/audit-event.types';
import { changedRows } from '../../database/changed-rows';
import { type DeliveryStatus, sendable } from '../outgoing-webhook.types';
import {
  CLAIM_SQL,
  CLAIMED_SQL,
  FINISH_SQL,
  SETTLE_SQL,
  FAILING_SQL,
  FAIL_PENDING_SQL,
} from './webhook-delivery.sql';

/** A claimed delivery with what sending it needs. */
export interface ClaimedDelivery {
  eventId: string;
  endpointId: string;
  attempts: number;
  type: string;
  /** Sealed under `dataKeyId`'s data key when that is set (WebhookDeliveryWorker opens it). */
  payload: string;
  dataKeyId: string | null;
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

/** The delivery table's statements: claim, record an attempt, hand back, disable an endpoint. */
@Injectable()
export class WebhookDeliveryStore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly audit: AuditLog,
    private readonly trail: AuditTrail,
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
    const params = [now, limit, leaseUntil, token, perEndpoint];
    const claimed = await changedRows(this.dataSource.manager, CLAIM_SQL, params);
    // Nothing leased to this fresh token (every idle poll): the read could only find nothing.
    if (claimed.affected === 0) return [];
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
        const reason = { code: 'gone', text: 'the receiver answered 410 Gone' };
        await this.disable(m, d.endpointId, d.orgId, reason, now);
        return afterDisabling;
      }
      const failing = await changedRows<{ failingSince: Date }>(m, FAILING_SQL, [
        d.endpointId,
        now,
      ]);
      // No row: the endpoint went in between (deleted), so it has nothing left to disable.
      const since = failing.rows[0]?.failingSince ?? now;
      const failingMs = now.getTime() - new Date(since).getTime();
      if (endpoint?.enabled && failingMs >= disableAfterMs) {
        const days = Math.round(disableAfterMs / 86_400_000);
        const reason = { code: 'failing', text: `every delivery failed for ${days} days` };
        await this.disable(m, d.endpointId, d.orgId, reason, now);
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
    const { rows } = await changedRows<{ status: DeliveryStatus }>(m, FINISH_SQL, [
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
   * events. Its test calls stay. `reason` null: a person did it (their own audit line and event);
   * otherwise the service did, and its `webhook_endpoint.disabled` audit event is written here, in
   * the disabling's transaction.
   */
  async disable(
    m: EntityManager,
    endpointId: string,
    orgId: string,
    reason: { code: string; text: string } | null,
    now: Date,
  ): Promise<void> {
    const { affected } = await changedRows(
      m,
      'UPDATE webhook_endpoints SET enabled = false WHERE id = $1 AND enabled',
      [endpointId],
    );
    await this.failPending(m, endpointId, now);
    if (affected > 0 && reason) {
      this.audit.record('webhook_endpoint_disabled', `webhook endpoint disabled: ${reason.text}`, {
        actor: 'system',
        endpoint_id: endpointId,
        org_id: orgId,
        reason: reason.text,
      });
      const subject = { type: 'webhook_endpoint', id: endpointId, orgId };
      const details = { reason: reason.code };
      await this.trail.append(
        { action: 'webhook_endpoint.disabled', actor: SYSTEM_ACTOR, subject, details },
        m,
      );
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
