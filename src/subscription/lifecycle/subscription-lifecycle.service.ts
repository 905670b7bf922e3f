import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { HistorySource, SubscriptionHistoryEntry } from './subscription-history.entity';
import type { EventFields, EventRef, ReadEvent } from './subscription-events';
import { isEffect, planTimeline, TimelineEntry } from './subscription-status.machine';
import {
  LEASE_PRODUCT,
  PersonalFields,
  Subscription,
  SubscriptionRecord,
  SubscriptionStatus,
} from '../subscription.entity';
import { SubscriptionService } from '../subscription.service';
import { lockSubscription, lockSubscriptionOfProcessor } from '../subscription-row-lock';
import { EventOutbox } from '../../outgoing-webhook/outbox/event-outbox.service';
import { columnsAsProperties } from '../../database/columns-as-properties';
import { statementRows } from '../../database/statement-rows';
import { parseUuid } from '../../config/uuid';
import { OpenKey } from '../../personal-data/personal-data.service';
import { SubscriptionPersonalData } from '../care-data/subscription-personal-data.service';
import { SubscriptionDeviceCustody } from '../shipping/subscription-device-custody.service';
import {
  ID_FILLABLE,
  PERSONAL_FILLABLE,
  patchParams,
  patchStatements,
  PatchStatements,
  SubscriptionPatch,
} from './subscription-patch';

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
  /**
   * The processor's customer an event brought to an erased record: the caller deletes it once the
   * transaction committed (SubscriptionErasure.deleteAtProcessor; the reconcile pass retries).
   */
  customerToErase?: string;
}

/** The dates an event's replay sets; none reads earlier than the record's creation. */
const STATUS_DATES = ['paidAt', 'canceledAt', 'expiredAt'] as const;

const HISTORY_INSERT_SQL = `INSERT INTO subscription_history (subscription_id, event_id, type, effect,
  from_status, to_status, event_created_at, received_at, source)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT DO NOTHING RETURNING id`;
const SESSION_TAKEN_SQL = 'SELECT 1 FROM subscriptions WHERE checkout_session_id = $1 LIMIT 1';

/**
 * Applies processor events to subscription records, for the webhook and the reconcile pass
 * alike. Runs inside the caller's transaction and uses only its manager: the record's row lock
 * makes concurrent events for one record take turns, so none reads a status another is changing.
 */
@Injectable()
export class SubscriptionLifecycleService {
  /**
   * Constant statements for every event's history read and the record's patch, made once from
   * the entities' metadata (the record's lock too: subscription-row-lock.ts): TypeORM's
   * find/update builders rebuilt them per event (docs/decisions/0012-constant-sql-on-hot-paths.md).
   */
  private historySql?: string;
  private patchSql?: PatchStatements;

  constructor(
    private readonly clock: Clock,
    private readonly outbox: EventOutbox,
    private readonly personalData: SubscriptionPersonalData,
    private readonly custody: SubscriptionDeviceCustody,
  ) {}

  private historyStatement(manager: EntityManager): string {
    this.historySql ??=
      `SELECT ${columnsAsProperties(manager.connection.getMetadata(SubscriptionHistoryEntry))} ` +
      'FROM subscription_history WHERE subscription_id = $1 ORDER BY event_created_at ASC, id ASC';
    return this.historySql;
  }

  async apply(
    manager: EntityManager,
    event: LifecycleEvent,
    options: ApplyOptions = {},
  ): Promise<ApplyResult> {
    if (event.ref.product !== null && event.ref.product !== LEASE_PRODUCT) {
      return { outcome: 'unknown_product' };
    }
    const locked = await this.lockRecord(manager, event.ref);
    if (!locked) return { outcome: 'unknown_subscription' };
    // Null once erased: such a record takes its status still, never personal data again.
    const key = await this.personalData.keyOf(locked.id, manager);
    const sub = this.personalData.opened(locked, key);
    const result = { subscriptionId: sub.id, from: sub.status };
    if (options.onlyIfPending && sub.status !== 'pending') {
      return { ...result, outcome: 'unchanged', to: sub.status };
    }
    const history = await statementRows<SubscriptionHistoryEntry>(
      manager,
      this.historyStatement(manager),
      [sub.id],
    );
    const stored: TimelineEntry[] = history.map((h) => ({
      effect: isEffect(h.effect) ? h.effect : 'none',
      eventCreatedAt: h.eventCreatedAt,
      from: h.fromStatus,
      to: h.toStatus,
    }));
    const plan = planTimeline(sub.status, stored, event);
    const { fills, plain } = await this.fillsFor(manager, sub, key, event.fields);
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
    const patch: SubscriptionPatch = { ...fills };
    if (moved) {
      patch.status = plan.status;
      patch.statusChangedAt = this.clock.now();
    }
    for (const field of STATUS_DATES) {
      // The processor's whole second may fall before our stamp of the record's creation.
      const at = plan[field] && notBefore(plan[field], sub.createdAt);
      if (at && at.getTime() !== sub[field]?.getTime()) patch[field] = at;
    }
    // An erased record keeps no personal data, nor a customer at the processor (contract section 9).
    const customerToErase = sub.erasedAt ? fills.processorCustomerId : undefined;
    if (customerToErase) patch.processorErasurePending = true;
    if (moved) {
      // The patch and its event in one statement: the record is locked, so the UPDATE matches.
      const change = {
        statement: this.patches(manager).withEvent,
        params: this.params(sub, patch),
      };
      const event = SubscriptionService.outgoingEvent({ ...sub, ...plain, ...patch }, key);
      await this.outbox.recordWith(manager, change, event);
      await this.custody.afterMove(manager, sub, plan.status);
    } else if (Object.keys(patch).length > 0) {
      await statementRows(manager, this.patches(manager).update, this.params(sub, patch));
    }
    const outcome = moved ? 'applied' : 'recorded';
    return { ...result, outcome, to: plan.status, ...(customerToErase && { customerToErase }) };
  }

  /** The patch's two statements, made once from the entity's metadata (subscription-patch.ts). */
  private patches(manager: EntityManager): PatchStatements {
    this.patchSql ??= patchStatements(manager.connection.getMetadata(Subscription));
    return this.patchSql;
  }

  /** A raw UPDATE skips ClockTimestamps: `updated_at` comes from the Clock here. */
  private params(sub: Subscription, patch: SubscriptionPatch): unknown[] {
    return patchParams(sub.id, patch, this.clock.now());
  }

  /**
   * By our own id when the event names one; by the processor's subscription id only when it does
   * not (an id of ours that matches nothing is not rescued by another record's processor id).
   * Locked until the caller's transaction ends.
   */
  private async lockRecord(manager: EntityManager, ref: EventRef): Promise<Subscription | null> {
    const id = parseUuid(ref.subscriptionId);
    if (id) return lockSubscription(manager, id);
    if (!ref.processorSubscriptionId) return null;
    return lockSubscriptionOfProcessor(manager, ref.processorSubscriptionId);
  }

  /**
   * The event's values for fields the record does not have yet; a late event still fills them.
   * Personal ones are sealed with the record's others into `personal` (`plain`: the same, opened).
   */
  private async fillsFor(
    manager: EntityManager,
    sub: SubscriptionRecord,
    key: OpenKey | null,
    fields: EventFields,
  ): Promise<{ fills: SubscriptionPatch; plain: Partial<PersonalFields> }> {
    const fills: SubscriptionPatch = {};
    const plain: Partial<PersonalFields> = {};
    for (const f of PERSONAL_FILLABLE) {
      const value = fields[f];
      if (value && key && sub[f] === null) plain[f] = value;
    }
    if (key && Object.keys(plain).length > 0) {
      fills.personal = this.personalData.seal(key, { ...sub, ...plain }) ?? undefined;
      if (plain.customerEmail)
        fills.customerEmailHash = this.personalData.emailHash(plain.customerEmail) ?? undefined;
    }
    for (const f of ID_FILLABLE) {
      const value = fields[f];
      if (value && sub[f] === null) fills[f] = value;
    }
    const sessionId = fields.checkoutSessionId;
    // The session id is unique: another record's session never moves over (it would fail for ever).
    if (sessionId && sub.checkoutSessionId === null) {
      const taken = await statementRows(manager, SESSION_TAKEN_SQL, [sessionId]);
      if (taken.length === 0) fills.checkoutSessionId = sessionId;
    }
    return { fills, plain };
  }

  /** False when this record already holds the event (a reconcile answer given twice). */
  private async record(
    manager: EntityManager,
    subscriptionId: string,
    event: LifecycleEvent,
    entry: { from: SubscriptionStatus; to: SubscriptionStatus },
  ): Promise<boolean> {
    const inserted = await statementRows(manager, HISTORY_INSERT_SQL, [
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

/** `at`, or `floor` when `at` is earlier. */
function notBefore(at: Date, floor: Date): Date {
  return at.getTime() < floor.getTime() ? new Date(floor) : at;
}
