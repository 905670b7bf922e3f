import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { SubscriptionError } from './subscription.error';
import { Clock } from '../common/clock/clock';
import { statementRows } from '../database/statement-rows';
import { ErrorCode } from '../common/errors/error-code.enum';
import { keysetPage, PageRequest } from '../common/pagination/keyset-page';
import { SUBSCRIPTION_ORDER, SubscriptionPosition, SubscriptionRow } from './subscription-cursor';
import { SubscriptionHistoryEntry } from './subscription-history.entity';
import { Page } from '../common/pagination/page';
import { parseUuid } from '../config/uuid';
import {
  LEASE_PRODUCT,
  Subscription,
  SUBSCRIPTION_STATUSES,
  SubscriptionStatus,
} from './subscription.entity';
import { SubscriptionRecordDto } from './subscription-view.dto';
import {
  EventOutbox,
  NewOutgoingEvent,
  outboxStatement,
} from '../outgoing-webhook/outbox/event-outbox.service';

/** The outgoing event each status a record takes sends (docs/outgoing-webhooks.md). */
const EVENT_OF_STATUS: Record<
  SubscriptionStatus,
  Exclude<NewOutgoingEvent, { orgId: string }>['type']
> = {
  pending: 'subscription.created',
  paid: 'subscription.paid',
  past_due: 'subscription.past_due',
  payment_failed: 'subscription.payment_failed',
  expired: 'subscription.expired',
  canceled: 'subscription.canceled',
};

/** One record and its history, in the order the events happened. */
export interface SubscriptionDetail {
  subscription: Subscription;
  history: SubscriptionHistoryEntry[];
}

/** What the public checkout stores before it asks the processor (a `pending` record). */
export type PendingIntent = Pick<
  Subscription,
  'name' | 'email' | 'coupon' | 'source' | 'leaseCents' | 'monthlyCents' | 'currency'
>;

export interface SubscriptionPage extends PageRequest {
  status?: SubscriptionStatus;
}

/** The pending record and its `subscription.created` event in one statement (createPending). */
const INSERT_PENDING = outboxStatement(
  `INSERT INTO subscriptions (id, product, status, name, email, coupon,
  source, lease_cents, monthly_cents, currency, created_at, updated_at)
  VALUES ($1, $2, 'pending', $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING 1`,
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
  async createPending(intent: PendingIntent): Promise<Subscription> {
    const now = this.clock.now();
    const record = Object.assign(new Subscription(), this.emptyRecord(), {
      ...intent,
      id: randomUUID(),
      product: LEASE_PRODUCT,
      status: 'pending',
      createdAt: now,
      updatedAt: now,
    } satisfies Partial<Subscription>);
    const params = [
      record.id,
      record.product,
      record.name,
      record.email,
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
      SubscriptionService.outgoingEvent(record),
    );
    return record;
  }

  async recordCheckoutSession(id: string, checkoutSessionId: string): Promise<void> {
    const params = [checkoutSessionId, this.clock.now(), id];
    await statementRows(this.subscriptions.manager, RECORD_SESSION_SQL, params);
  }

  /** The processor's reason for a failed checkout, kept on the record for operators. */
  async noteProcessorError(id: string, reason: string): Promise<void> {
    await this.subscriptions.update(id, { lastProcessorError: reason });
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

  async get(id: string): Promise<Subscription> {
    const canonical = parseUuid(id);
    const found = canonical ? await this.subscriptions.findOneBy({ id: canonical }) : null;
    if (!found) {
      throw new SubscriptionError(ErrorCode.NotFound, 'No such subscription.');
    }
    return found;
  }

  /** In the order the events happened (their `created`, ties in arrival order). */
  historyOf(id: string): Promise<SubscriptionHistoryEntry[]> {
    return this.history.find({
      where: { subscriptionId: id },
      order: { eventCreatedAt: 'ASC', id: 'ASC' },
    });
  }

  async detail(id: string): Promise<SubscriptionDetail> {
    const subscription = await this.get(id);
    return { subscription, history: await this.historyOf(subscription.id) };
  }

  /** Newest first, keyset on (created_at, id): pages neither repeat nor skip while records arrive. */
  async list(page: SubscriptionPage): Promise<Page<Subscription>> {
    return keysetPage(
      page,
      SUBSCRIPTION_ORDER,
      (after, take) => this.newestFirst(page.status, after, take),
      (row) => row.sub,
    );
  }

  private async newestFirst(
    status: SubscriptionStatus | undefined,
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
    if (after) {
      query.andWhere('(s.created_at, s.id) < (CAST(:at AS timestamptz), CAST(:id AS uuid))', after);
    }
    const { entities, raw } = await query.getRawAndEntities<{ cursor_at: string }>();
    return entities.map((sub, i) => ({ sub, at: raw[i].cursor_at }));
  }

  /** The outgoing event for the status the record has just taken (docs/outgoing-webhooks.md). */
  static outgoingEvent(s: Subscription): NewOutgoingEvent {
    return { type: EVENT_OF_STATUS[s.status], data: SubscriptionRecordDto.from(s) };
  }
}
