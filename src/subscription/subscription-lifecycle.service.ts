import { Injectable } from '@nestjs/common';
import { isUUID } from '../config/class-validator';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { HistorySource, SubscriptionHistoryEntry } from './subscription-history.entity';
import type { EventFields, EventRef, ReadEvent } from './subscription-events';
import { isEffect, planTimeline, TimelineEntry } from './subscription-lifecycle';
import { LEASE_PRODUCT, Subscription, SubscriptionStatus } from './subscription.entity';
import { SubscriptionService } from './subscription.service';
import { EventOutbox } from '../outgoing-webhook/event-outbox.service';
import { columnsAsProperties } from '../database/columns-as-properties';

/** One event to apply: what it means, plus where it came from. */
export interface LifecycleEvent extends ReadEvent {
  eventId: string;
  type: string;
  createdAt: Date;
  source: HistorySource;
}

export interface ApplyOptions {
  /** Reconcile: never touch a record something else already moved. */
  onlyIfPending?: boolean;
  /** Reconcile: keep no history entry for an answer that changes nothing. */
  onlyIfChanged?: boolean;
}

export type ApplyOutcome =
  | 'applied'
  | 'recorded'
  | 'unchanged'
  | 'already_recorded'
  | 'unknown_product'
  | 'unknown_subscription';

export interface ApplyResult {
  outcome: ApplyOutcome;
  subscriptionId?: string;
  from?: SubscriptionStatus;
  to?: SubscriptionStatus;
}

const LOCK = { mode: 'pessimistic_write' } as const;
const HISTORY_INSERT_SQL = `INSERT INTO subscription_history (subscription_id, event_id, type, effect,
  from_status, to_status, event_created_at, received_at, source)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING id`;
const SESSION_TAKEN_SQL = 'SELECT 1 FROM subscriptions WHERE checkout_session_id = $1 LIMIT 1';

/** Every column of an entity, aliased to its property: rows read this way are the entity's shape. */
const columnsOf = (
  manager: EntityManager,
  entity: typeof Subscription | typeof SubscriptionHistoryEntry,
) => columnsAsProperties(manager.connection.getMetadata(entity));
const FILLABLE: readonly (keyof EventFields)[] = [
  'customerEmail',
  'customerName',
  'customerPhone',
  'recipientName',
  'livingSituation',
  'primaryConcern',
  'shippingAddress',
  'recipientZip',
  'shippingName',
  'processorSubscriptionId',
  'processorCustomerId',
];

/**
 * Applies processor events to subscription records, for the webhook and the reconcile pass
 * alike. Runs inside the caller's transaction and uses only its manager: the record's row lock
 * makes concurrent events for one record take turns, so none reads a status another is changing.
 */
@Injectable()
export class SubscriptionLifecycle {
  /**
   * Constant statements for every event's reads and the history insert, made once from the
   * entities' metadata: TypeORM's find/insert builders rebuilt them per event (bench/findings.md).
   */
  private sql?: { lockById: string; history: string };
  private columns?: Map<string, string>;

  constructor(
    private readonly clock: Clock,
    private readonly outbox: EventOutbox,
  ) {}

  private statements(manager: EntityManager): { lockById: string; history: string } {
    this.sql ??= {
      lockById: `SELECT ${columnsOf(manager, Subscription)} FROM subscriptions WHERE id = $1 LIMIT 1 FOR UPDATE`,
      history:
        `SELECT ${columnsOf(manager, SubscriptionHistoryEntry)} FROM subscription_history ` +
        'WHERE subscription_id = $1 ORDER BY event_created_at ASC, id ASC',
    };
    return this.sql;
  }

  async apply(
    manager: EntityManager,
    event: LifecycleEvent,
    options: ApplyOptions = {},
  ): Promise<ApplyResult> {
    if (event.ref.product !== null && event.ref.product !== LEASE_PRODUCT) {
      return { outcome: 'unknown_product' };
    }
    const sub = await this.lockRecord(manager, event.ref);
    if (!sub) return { outcome: 'unknown_subscription' };
    const result = { subscriptionId: sub.id, from: sub.status };
    if (options.onlyIfPending && sub.status !== 'pending') {
      return { ...result, outcome: 'unchanged', to: sub.status };
    }
    const history = await manager.query<SubscriptionHistoryEntry[]>(
      this.statements(manager).history,
      [sub.id],
    );
    const stored: TimelineEntry[] = history.map((h) => ({
      effect: isEffect(h.effect) ? h.effect : 'none',
      eventCreatedAt: h.eventCreatedAt,
      from: h.fromStatus,
      to: h.toStatus,
    }));
    const plan = planTimeline(sub.status, stored, event);
    const fills = await this.fillsFor(manager, sub, event.fields);
    const moved = plan.status !== sub.status;
    if (options.onlyIfChanged && !moved && Object.keys(fills).length === 0) {
      return { ...result, outcome: 'unchanged', to: sub.status };
    }
    if (!(await this.record(manager, sub.id, { ...event, effect: plan.effect }, plan.entry))) {
      return { ...result, outcome: 'already_recorded', to: sub.status };
    }
    for (const [i, step] of plan.rewrites) {
      await manager.update(SubscriptionHistoryEntry, history[i].id, {
        fromStatus: step.from,
        toStatus: step.to,
      });
    }
    const patch: Partial<Subscription> = { ...fills };
    if (moved) patch.status = plan.status;
    if (plan.paidAt && plan.paidAt.getTime() !== sub.paidAt?.getTime()) patch.paidAt = plan.paidAt;
    if (plan.canceledAt && plan.canceledAt.getTime() !== sub.canceledAt?.getTime()) {
      patch.canceledAt = plan.canceledAt;
    }
    if (Object.keys(patch).length > 0) await this.update(manager, sub.id, patch);
    if (moved)
      await this.outbox.record(manager, SubscriptionService.outgoingEvent({ ...sub, ...patch }));
    return { ...result, outcome: moved ? 'applied' : 'recorded', to: plan.status };
  }

  /** The record's patch as one statement (the column names from the entity's metadata, once). */
  private async update(manager: EntityManager, id: string, patch: Partial<Subscription>) {
    this.columns ??= new Map(
      manager.connection
        .getMetadata(Subscription)
        .columns.map((c) => [c.propertyName, c.databaseName]),
    );
    const stamped = { ...patch, updatedAt: this.clock.now() };
    const keys = Object.keys(stamped) as (keyof Subscription)[];
    const sets = keys.map((k, i) => `"${this.columns!.get(k)}" = $${i + 1}`);
    await manager.query(
      `UPDATE subscriptions SET ${sets.join(', ')} WHERE id = $${keys.length + 1}`,
      [...keys.map((k) => stamped[k]), id],
    );
  }

  /**
   * By our own id when the event names one; by the processor's subscription id only when it does
   * not (an id of ours that matches nothing is not rescued by another record's processor id).
   * Locked until the caller's transaction ends.
   */
  private async lockRecord(manager: EntityManager, ref: EventRef): Promise<Subscription | null> {
    if (ref.subscriptionId && isUUID(ref.subscriptionId)) {
      const id = ref.subscriptionId.toLowerCase();
      const rows = await manager.query<Subscription[]>(this.statements(manager).lockById, [id]);
      return rows[0] ?? null;
    }
    if (!ref.processorSubscriptionId) return null;
    return manager.getRepository(Subscription).findOne({
      where: { processorSubscriptionId: ref.processorSubscriptionId },
      order: { createdAt: 'ASC' },
      lock: LOCK,
    });
  }

  /** The event's values for fields the record does not have yet; a late event still fills them. */
  private async fillsFor(
    manager: EntityManager,
    sub: Subscription,
    fields: EventFields,
  ): Promise<Partial<Subscription>> {
    const fills: Partial<Subscription> = {};
    for (const key of FILLABLE) {
      const value = fields[key];
      if (value && sub[key] === null) fills[key] = value;
    }
    const sessionId = fields.checkoutSessionId;
    // The session id is unique: another record's session never moves over (it would fail for ever).
    if (sessionId && sub.checkoutSessionId === null) {
      const taken = await manager.query<unknown[]>(SESSION_TAKEN_SQL, [sessionId]);
      if (taken.length === 0) fills.checkoutSessionId = sessionId;
    }
    return fills;
  }

  /** False when this record already holds the event (a reconcile answer given twice). */
  private async record(
    manager: EntityManager,
    subscriptionId: string,
    event: LifecycleEvent,
    entry: { from: SubscriptionStatus; to: SubscriptionStatus },
  ): Promise<boolean> {
    const inserted = await manager.query<unknown[]>(HISTORY_INSERT_SQL, [
      subscriptionId,
      event.eventId.slice(0, 255),
      event.type.slice(0, 100),
      event.effect,
      entry.from,
      entry.to,
      event.createdAt,
      this.clock.now(),
      event.source,
    ]);
    return inserted.length > 0;
  }
}
