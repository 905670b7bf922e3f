import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { noSuchSubscription } from './subscription.error';
import { Clock } from '../common/clock/clock';
import { statementRows } from '../database/statement-rows';
import { keysetPage, PageRequest } from '../common/pagination/keyset-page';
import { SUBSCRIPTION_ORDER, SubscriptionPosition, SubscriptionRow } from './subscription-cursor';
import { SubscriptionHistoryEntry } from './lifecycle/subscription-history.entity';
import { Page } from '../common/pagination/page';
import { parseUuid } from '../config/uuid';
import {
  LEASE_PRODUCT,
  Subscription,
  SUBSCRIPTION_STATUSES,
  SubscriptionRecord,
  SubscriptionStatus,
} from './subscription.entity';
import { OpenKey } from '../personal-data/personal-data.service';
import { AuditTrail } from '../audit/audit-trail.service';
import type { AuditActor } from '../audit/audit-event.types';
import { subscriptionSubject } from './subscription-audit';
import { AppConfig } from '../config/app-config';
import {
  NO_PERSONAL_FIELDS,
  SubscriptionPersonalData,
} from './care-data/subscription-personal-data.service';
import { lockSubscription } from './subscription-row-lock';
import { awaitingDeviceSql } from './subscription.sql';
import { SubscriptionRecordDto } from './subscription-view.dto';
import {
  EventOutbox,
  NewOutgoingEvent,
  outboxStatement,
} from '../outgoing-webhook/outbox/event-outbox.service';

/** The types of the events whose data is a record (or its erasure). */
type SubscriptionEventType = Exclude<NewOutgoingEvent, { orgId: string }>['type'];

/** The outgoing event each status a record takes sends (docs/outgoing-webhooks.md). */
const EVENT_OF_STATUS: Record<SubscriptionStatus, SubscriptionEventType> = {
  pending: 'subscription.created',
  paid: 'subscription.paid',
  past_due: 'subscription.past_due',
  payment_failed: 'subscription.payment_failed',
  expired: 'subscription.expired',
  canceled: 'subscription.canceled',
};

/** One record, opened, and its history, in the order the events happened. */
export interface SubscriptionDetail {
  subscription: SubscriptionRecord;
  history: SubscriptionHistoryEntry[];
}

/** What the public checkout stores before it asks the processor (a `pending` record). */
export type PendingIntent = Pick<
  SubscriptionRecord,
  'name' | 'email' | 'coupon' | 'source' | 'leaseCents' | 'monthlyCents' | 'currency'
>;

export interface SubscriptionPage extends PageRequest {
  status?: SubscriptionStatus;
  /** An exact match on the checkout's or the processor's email, through its keyed hash. */
  email?: string;
  /** Only live records with no device shipped yet, not erased (awaitingDeviceSql). */
  awaitingDevice?: boolean;
}

/** The pending record and its `subscription.created` event in one statement (createPending). */
const INSERT_PENDING = outboxStatement(
  `INSERT INTO subscriptions (id, product, status, personal, email_hash, coupon,
  source, lease_cents, monthly_cents, currency, created_at, updated_at, status_changed_at)
  VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7, $8, $9, $10, $10, $10) RETURNING 1`,
  10,
);

const RECORD_SESSION_SQL =
  'UPDATE subscriptions SET checkout_session_id = $1, updated_at = $2 WHERE id = $3';

/** The creation time to the microsecond, for the cursor (a Date would keep milliseconds). */
const CURSOR_AT = `to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Subscription records as operators read them: the API, and the command line. */
@Injectable()
export class SubscriptionService {
  private nulls?: Record<string, null>;

  constructor(
    @InjectRepository(Subscription) private readonly subscriptions: Repository<Subscription>,
    @InjectRepository(SubscriptionHistoryEntry)
    private readonly history: Repository<SubscriptionHistoryEntry>,
    private readonly outbox: EventOutbox,
    private readonly clock: Clock,
    private readonly personalData: SubscriptionPersonalData,
    private readonly audit: AuditTrail,
    private readonly config: AppConfig,
  ) {}

  /** Every column of a record, null: what a new row holds but what its INSERT sets. */
  private emptyRecord(): Record<string, null> {
    this.nulls ??= Object.fromEntries(
      this.subscriptions.metadata.columns.map((c) => [c.propertyName, null]),
    );
    return this.nulls;
  }

  /**
   * A new `pending` record of the one product, and its `subscription.created` event with the
   * event's deliveries, in one statement (EventOutbox.recordWith): committed on its own, without
   * a transaction (it must outlive a failure), in one round trip. Its id is made here, so the
   * event's body (the record as stored) is known before the statement; the Clock's time, as the
   * ClockTimestamps subscriber would stamp it.
   */
  async createPending(intent: PendingIntent): Promise<SubscriptionRecord> {
    const now = this.clock.now();
    const id = randomUUID();
    // The data key first, on its own: a key without a record is harmless, the reverse is not.
    const key = await this.personalData.newKey(id);
    const record = Object.assign(new Subscription(), this.emptyRecord(), NO_PERSONAL_FIELDS, {
      ...intent,
      id,
      product: LEASE_PRODUCT,
      status: 'pending',
      personal: this.personalData.seal(key, intent),
      emailHash: this.personalData.emailHash(intent.email),
      erasedAt: null,
      processorErasurePending: false,
      statusChangedAt: now,
      createdAt: now,
      updatedAt: now,
    } satisfies Partial<SubscriptionRecord>);
    const params = [
      record.id,
      record.product,
      record.personal,
      record.emailHash,
      record.coupon,
      record.source,
      record.leaseCents,
      record.monthlyCents,
      record.currency,
      now,
    ];
    await this.outbox.recordWith(
      this.subscriptions.manager,
      { statement: INSERT_PENDING, params },
      SubscriptionService.outgoingEvent(record, key),
    );
    return record;
  }

  async recordCheckoutSession(id: string, checkoutSessionId: string): Promise<void> {
    const params = [checkoutSessionId, this.clock.now(), id];
    await statementRows(this.subscriptions.manager, RECORD_SESSION_SQL, params);
  }

  /**
   * The processor's reason for a failed checkout, kept on the record for operators: sealed with
   * the record's other fields (it may quote them), under the record's lock.
   */
  async noteProcessorError(id: string, reason: string): Promise<void> {
    await this.subscriptions.manager.transaction(async (manager) => {
      const sub = await lockSubscription(manager, id);
      const key = sub && (await this.personalData.keyOf(id, manager));
      if (!sub || !key) return;
      const fields = { ...this.personalData.opened(sub, key), lastProcessorError: reason };
      await manager.update(Subscription, id, { personal: this.personalData.seal(key, fields) });
    });
  }

  /** The status of the record behind a hosted checkout session; undefined when there is none. */
  async statusOfCheckoutSession(sessionId: string): Promise<SubscriptionStatus | undefined> {
    const found = await this.subscriptions.findOne({
      where: { checkoutSessionId: sessionId },
      select: { status: true },
    });
    return found?.status;
  }

  /** How many records have each status, every status included (0 when none). */
  async countByStatus(): Promise<Record<SubscriptionStatus, number>> {
    const rows = await this.subscriptions
      .createQueryBuilder('s')
      .select('s.status', 'status')
      .addSelect('count(*)', 'n')
      .groupBy('s.status')
      .getRawMany<{ status: SubscriptionStatus; n: string }>();
    const counts = new Map(rows.map((r) => [r.status, Number(r.n)]));
    return Object.fromEntries(
      SUBSCRIPTION_STATUSES.map((status) => [status, counts.get(status) ?? 0]),
    ) as Record<SubscriptionStatus, number>;
  }

  async get(id: string): Promise<SubscriptionRecord> {
    const canonical = parseUuid(id);
    const found = canonical ? await this.subscriptions.findOneBy({ id: canonical }) : null;
    if (!found) throw noSuchSubscription();
    return this.personalData.openOne(found);
  }

  /** In the order the events happened (their `created`, ties in arrival order). */
  historyOf(id: string): Promise<SubscriptionHistoryEntry[]> {
    return this.history.find({
      where: { subscriptionId: id },
      order: { eventCreatedAt: 'ASC', id: 'ASC' },
    });
  }

  /** The record with its personal data: remembered (`subscription.viewed`) before it is handed out. */
  async detail(id: string, actor: AuditActor): Promise<SubscriptionDetail> {
    const subscription = await this.get(id);
    const history = await this.historyOf(subscription.id);
    await this.audit.append({
      action: 'subscription.viewed',
      actor,
      subject: subscriptionSubject(this.config, subscription.id),
    });
    return { subscription, history };
  }

  /**
   * Newest first, keyset on (created_at, id): pages neither repeat nor skip while records arrive.
   * Each page is remembered, its record ids in the event (`subscription.listed`), or the keyed
   * hash of the email asked for (`subscription.searched`), never the email.
   */
  async list(page: SubscriptionPage, actor: AuditActor): Promise<Page<SubscriptionRecord>> {
    const found = await keysetPage(
      page,
      SUBSCRIPTION_ORDER,
      (after, take) => this.newestFirst(page, after, take),
      (row) => row.sub,
    );
    const ids = found.items.map((s) => s.id);
    await this.audit.append(
      page.email === undefined
        ? { action: 'subscription.listed', actor, details: { ids } }
        : {
            action: 'subscription.searched',
            actor,
            details: { query_hash: this.personalData.emailHash(page.email), ids },
          },
    );
    return { ...found, items: await this.personalData.openMany(found.items) };
  }

  private async newestFirst(
    { status, email, awaitingDevice }: SubscriptionPage,
    after: SubscriptionPosition | undefined,
    take: number,
  ): Promise<SubscriptionRow[]> {
    const query = this.subscriptions
      .createQueryBuilder('s')
      .addSelect(CURSOR_AT, 'cursor_at')
      .orderBy('s.created_at', 'DESC')
      .addOrderBy('s.id', 'DESC')
      .limit(take);
    if (status) query.andWhere('s.status = :status', { status });
    if (awaitingDevice) query.andWhere(awaitingDeviceSql('s'));
    if (email !== undefined) {
      const hash = this.personalData.emailHash(email);
      query.andWhere('(s.email_hash = :hash OR s.customer_email_hash = :hash)', { hash });
    }
    if (after) {
      query.andWhere('(s.created_at, s.id) < (CAST(:at AS timestamptz), CAST(:id AS uuid))', after);
    }
    const { entities, raw } = await query.getRawAndEntities<{ cursor_at: string }>();
    return entities.map((sub, i) => ({ sub, at: raw[i].cursor_at }));
  }

  /**
   * The outgoing event for the status the record has just taken (docs/outgoing-webhooks.md), or
   * another event whose data is the record (`subscription.shipped`, `subscription.activated`),
   * sealed under the record's data key (none once erased: its personal fields are empty then).
   */
  static outgoingEvent(
    s: SubscriptionRecord,
    key: OpenKey | null,
    type: SubscriptionEventType = EVENT_OF_STATUS[s.status],
  ): NewOutgoingEvent {
    const data = SubscriptionRecordDto.from(s);
    return { type, data, subjectId: s.id, ...(key ? { sealWith: key } : {}) };
  }
}
