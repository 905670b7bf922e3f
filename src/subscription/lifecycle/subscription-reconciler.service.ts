import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type Stripe from 'stripe';
import { DataSource } from 'typeorm';
import { PaymentProcessorClient } from '../../processor/payment-processor.client';
import { describeProcessorError } from '../../processor/processor-errors';
import { Clock } from '../../common/clock/clock';
import { AppConfig } from '../../config/app-config';
import { readEventObject } from './subscription-events';
import { LifecycleEvent, SubscriptionLifecycleService } from './subscription-lifecycle.service';
import type { SubscriptionStatus } from '../subscription.entity';
import { ADVISORY_LOCK } from '../../database/advisory-locks';
import { changedRows } from '../../database/changed-rows';
import { SubscriptionErasure } from '../care-data/subscription-erasure.service';

/** An intent that never reached the processor expires after this long (docs/checkout.md). */
const UNSENT_EXPIRY_MS = 24 * 3600 * 1000;
/** A record asked about this recently is not asked again, by this instance or another. */
const RECHECK_AFTER_MS = 60 * 1000;
/** Records per pass; the rest wait for the next one. */
const BATCH = 500;

/**
 * Claims the due pending records, oldest first, and stamps them, so an instance claiming right
 * after finds them taken. Skipped rows are locked by an event being applied right now.
 */
const CLAIM_SQL = `UPDATE subscriptions SET reconciled_at = $1 WHERE id IN (
  SELECT id FROM subscriptions WHERE status = 'pending'
    AND (reconciled_at IS NULL OR reconciled_at <= $2)
    AND ((checkout_session_id IS NOT NULL AND created_at <= $3) OR created_at <= $4)
  ORDER BY created_at, id LIMIT $5 FOR UPDATE SKIP LOCKED)
  RETURNING id, checkout_session_id AS "checkoutSessionId", created_at AS "createdAt"`;

/**
 * Claims erased records whose processor customer is still to be deleted, stamped like the
 * pending ones; a deletion that just failed (SubscriptionErasure stamps it) waits its minute.
 */
const CLAIM_ERASURES_SQL = `UPDATE subscriptions SET reconciled_at = $1 WHERE id IN (
  SELECT id FROM subscriptions WHERE processor_erasure_pending
    AND (reconciled_at IS NULL OR reconciled_at <= $2)
  ORDER BY id LIMIT $3 FOR UPDATE SKIP LOCKED)
  RETURNING id, processor_customer_id AS "customerId"`;

interface ClaimedErasure {
  id: string;
  customerId: string | null;
}

interface Claimed {
  id: string;
  checkoutSessionId: string | null;
  createdAt: Date;
}

export interface ReconcileChange {
  id: string;
  type: string;
  from: SubscriptionStatus;
  to: SubscriptionStatus;
}

export interface ReconcileReport {
  /** Set when this pass did nothing: another instance was claiming, or this one is stopping. */
  skipped?: 'another_instance' | 'stopping';
  asked: number;
  changed: ReconcileChange[];
  unchanged: number;
  failed: { id: string; reason: string }[];
  /** Only when there were any: processor customers of erased records, deleted or not yet. */
  erasures?: { asked: number; deleted: number; failed: number };
}

/**
 * The reconcile pass (docs/checkout.md): asks the processor about pending records the
 * webhook left behind and applies, through the webhook's own code, the transition the missing
 * event would have made. Never touches a record something else already moved. Also asks the
 * processor again to delete the customers of erased records it could not reach then.
 */
@Injectable()
export class SubscriptionReconciler {
  private readonly logger = new Logger('Reconcile');
  private stopping = false;

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly processor: PaymentProcessorClient,
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly erasure: SubscriptionErasure,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** Ends the pass in progress after its current record (shutdown). */
  stop(): void {
    this.stopping = true;
  }

  async runOnce(): Promise<ReconcileReport> {
    const report: ReconcileReport = { asked: 0, changed: [], unchanged: 0, failed: [] };
    const claim = await this.claim();
    if (!claim) return { ...report, skipped: 'another_instance' };
    const { claimed, erasures } = claim;
    report.asked = claimed.length;
    for (const row of claimed) {
      if (this.stopping) return { ...report, skipped: 'stopping' };
      await this.reconcileOne(row, report);
    }
    if (erasures.length > 0) report.erasures = { asked: erasures.length, deleted: 0, failed: 0 };
    for (const row of erasures) {
      if (this.stopping) return { ...report, skipped: 'stopping' };
      await this.retryErasure(row, report.erasures!);
    }
    return report;
  }

  /** The processor's customer of an erased record, asked again (a 404 counts as deleted). */
  private async retryErasure(
    row: ClaimedErasure,
    counts: NonNullable<ReconcileReport['erasures']>,
  ): Promise<void> {
    const deleted = row.customerId
      ? await this.erasure.deleteAtProcessor(row.id, row.customerId)
      : false;
    if (deleted) counts.deleted++;
    else counts.failed++;
  }

  /** Undefined when another instance holds the lock (it is claiming these very records). */
  private claim(): Promise<{ claimed: Claimed[]; erasures: ClaimedErasure[] } | undefined> {
    const now = this.clock.now().getTime();
    const pendingAfterMs = this.config.subscriptions.reconcilePendingAfterSeconds * 1000;
    return this.dataSource.transaction(async (manager) => {
      const [lock] = await manager.query<{ ok: boolean }[]>(
        'SELECT pg_try_advisory_xact_lock($1) AS ok',
        [ADVISORY_LOCK.reconcile],
      );
      if (!lock.ok) return undefined;
      const { rows } = await changedRows<Claimed>(manager, CLAIM_SQL, [
        new Date(now),
        new Date(now - RECHECK_AFTER_MS),
        new Date(now - pendingAfterMs),
        new Date(now - UNSENT_EXPIRY_MS),
        BATCH,
      ]);
      const erasures = await changedRows<ClaimedErasure>(manager, CLAIM_ERASURES_SQL, [
        new Date(now),
        new Date(now - RECHECK_AFTER_MS),
        BATCH,
      ]);
      return { claimed: rows, erasures: erasures.rows };
    });
  }

  private async reconcileOne(row: Claimed, report: ReconcileReport): Promise<void> {
    let event: LifecycleEvent | undefined;
    try {
      event = row.checkoutSessionId
        ? await this.fromSession(row.id, row.checkoutSessionId)
        : this.unsentIntent(row);
    } catch (err) {
      const reason = describeProcessorError(err);
      this.logger.warn(`subscription ${row.id}: could not ask the processor: ${reason}`);
      report.failed.push({ id: row.id, reason });
      return;
    }
    if (!event) {
      report.unchanged++;
      return;
    }
    const applied = event;
    const result = await this.dataSource.transaction((manager) =>
      this.lifecycle.apply(manager, applied, { onlyIfPending: true, onlyIfChanged: true }),
    );
    // A completion that reached an erased record: its new customer goes too.
    if (result.customerToErase)
      await this.erasure.deleteAtProcessor(row.id, result.customerToErase);
    if (result.outcome === 'applied' || result.outcome === 'recorded') {
      report.changed.push({ id: row.id, type: applied.type, from: result.from!, to: result.to! });
      this.logger.log(`subscription ${row.id}: ${result.from} -> ${result.to} by ${applied.type}`);
    } else {
      report.unchanged++;
    }
  }

  /** Nothing to apply while the hosted session is still open. */
  private async fromSession(id: string, sessionId: string): Promise<LifecycleEvent | undefined> {
    const session = await this.processor.retrieveCheckoutSession(sessionId);
    const type = TYPE_FOR_SESSION_STATUS[session.status ?? ''];
    const read = type ? readEventObject(type, session) : undefined;
    if (!type || !read) return undefined;
    return {
      ...read,
      // We asked about this record's own session, whatever its metadata says.
      ref: { ...read.ref, subscriptionId: id },
      eventId: `reconcile:${session.id}:${read.effect}`,
      type,
      createdAt: whenItHappened(type, session),
      source: 'reconcile',
    };
  }

  /** An intent whose checkout never opened: expired a day after it was made. */
  private unsentIntent(row: Claimed): LifecycleEvent | undefined {
    const expiredAt = new Date(new Date(row.createdAt).getTime() + UNSENT_EXPIRY_MS);
    if (expiredAt > this.clock.now()) return undefined;
    return {
      ref: { subscriptionId: row.id, processorSubscriptionId: null, product: null },
      effect: 'checkout_expired',
      fields: {},
      eventId: `reconcile:${row.id}:intent_expired`,
      type: 'intent.expired',
      createdAt: expiredAt,
      source: 'reconcile',
    };
  }
}

/** The event the processor would have sent for a session in this state. */
const TYPE_FOR_SESSION_STATUS: Record<string, string | undefined> = {
  complete: 'checkout.session.completed',
  expired: 'checkout.session.expired',
};

/**
 * When the missing event was created, as near as the session tells: the subscription's creation
 * is the checkout's completion; a session expires at `expires_at`.
 */
function whenItHappened(type: string, session: Stripe.Checkout.Session): Date {
  const sub = session.subscription;
  const completedAt = typeof sub === 'object' && sub !== null ? sub.created : undefined;
  const seconds =
    type === 'checkout.session.expired' ? session.expires_at : (completedAt ?? session.created);
  return new Date(seconds * 1000);
}
