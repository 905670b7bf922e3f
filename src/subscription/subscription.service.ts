import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { Repository } from 'typeorm';
import { SubscriptionError } from './subscription.error';
import { ErrorCode } from '../common/errors/error-code.enum';
import {
  decodeSubscriptionCursor,
  encodeSubscriptionCursor,
  SubscriptionCursor,
} from './subscription-cursor';
import { SubscriptionHistoryEntry } from './subscription-history.entity';
import {
  SubscriptionDetailDto,
  SubscriptionHistoryItemDto,
  SubscriptionListDto,
  SubscriptionRecordDto,
} from './subscription-view.dto';
import { Subscription, SubscriptionStatus } from './subscription.entity';
import type { NewOutgoingEvent } from '../outgoing-webhook/event-outbox.service';

export type SubscriptionView = Record<string, unknown>;

export interface SubscriptionPage {
  status?: SubscriptionStatus;
  limit: number;
  cursor?: string;
}

/** The creation time to the microsecond, for the cursor (a Date would keep milliseconds). */
const CURSOR_AT = `to_char(s.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Subscription records as operators read them: the API, and the command line. */
@Injectable()
export class SubscriptionService {
  constructor(
    @InjectRepository(Subscription) private readonly subscriptions: Repository<Subscription>,
    @InjectRepository(SubscriptionHistoryEntry)
    private readonly history: Repository<SubscriptionHistoryEntry>,
  ) {}

  async get(id: string): Promise<Subscription> {
    const found = isUUID(id) ? await this.subscriptions.findOneBy({ id: id.toLowerCase() }) : null;
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

  async detail(id: string): Promise<SubscriptionDetailDto> {
    const sub = await this.get(id);
    const history = await this.historyOf(sub.id);
    return { ...SubscriptionService.record(sub), history: history.map(historyItem) };
  }

  /** Newest first, keyset on (created_at, id): pages neither repeat nor skip while records arrive. */
  async list(page: SubscriptionPage): Promise<SubscriptionListDto> {
    const after = page.cursor === undefined ? undefined : decodeSubscriptionCursor(page.cursor);
    if (page.cursor !== undefined && after === undefined) {
      throw new SubscriptionError(ErrorCode.ValidationFailed, 'Bad cursor.', [
        { field: 'cursor', message: 'cursor is not a next_cursor of this list' },
      ]);
    }
    const query = this.subscriptions
      .createQueryBuilder('s')
      .addSelect(CURSOR_AT, 'cursor_at')
      .orderBy('s.created_at', 'DESC')
      .addOrderBy('s.id', 'DESC')
      // One extra row tells whether another page follows, without a count.
      .limit(page.limit + 1);
    if (page.status) query.andWhere('s.status = :status', { status: page.status });
    if (after) {
      query.andWhere('(s.created_at, s.id) < (CAST(:at AS timestamptz), CAST(:id AS uuid))', after);
    }
    const { entities, raw } = await query.getRawAndEntities<{ cursor_at: string }>();
    const items = entities.slice(0, page.limit);
    const last = items.length > 0 ? items[items.length - 1] : undefined;
    const next: SubscriptionCursor | undefined =
      entities.length > page.limit && last
        ? { at: raw[items.length - 1].cursor_at, id: last.id }
        : undefined;
    return {
      items: items.map((s) => SubscriptionService.record(s)),
      next_cursor: next ? encodeSubscriptionCursor(next) : null,
    };
  }

  /** CONTRACT.md section 6's record. Customer details: only here and in the CLI, never in logs. */
  static record(s: Subscription): SubscriptionRecordDto {
    return {
      id: s.id,
      status: s.status,
      created_at: s.createdAt.toISOString(),
      paid_at: s.paidAt?.toISOString() ?? null,
      canceled_at: s.canceledAt?.toISOString() ?? null,
      coupon: s.coupon,
      // Before the processor reports, what the buyer typed on the plans page.
      customer: {
        email: s.customerEmail ?? s.email,
        name: s.customerName ?? s.name,
        phone: s.customerPhone,
      },
      recipient: {
        name: s.recipientName,
        living_situation: s.livingSituation,
        primary_concern: s.primaryConcern,
        zip: s.recipientZip,
      },
      shipping: { name: s.shippingName, address: s.shippingAddress },
      processor: {
        checkout_session_id: s.checkoutSessionId,
        subscription_id: s.processorSubscriptionId,
        customer_id: s.processorCustomerId,
      },
    };
  }

  /** The outgoing event for the status the record has just taken (docs/outgoing-webhooks.md). */
  static outgoingEvent(s: Subscription): NewOutgoingEvent {
    const type = s.status === 'pending' ? 'subscription.created' : `subscription.${s.status}`;
    return { type, data: SubscriptionService.record(s) } as NewOutgoingEvent;
  }

  /** The command line's view: every column, and the history. */
  static view(s: Subscription, history: SubscriptionHistoryEntry[]): SubscriptionView {
    return {
      id: s.id,
      product: s.product,
      status: s.status,
      name: s.name,
      email: s.email,
      coupon: s.coupon,
      source: s.source,
      lease_cents: s.leaseCents,
      monthly_cents: s.monthlyCents,
      currency: s.currency,
      checkout_session_id: s.checkoutSessionId,
      last_processor_error: s.lastProcessorError,
      customer_email: s.customerEmail,
      customer_name: s.customerName,
      customer_phone: s.customerPhone,
      recipient_name: s.recipientName,
      living_situation: s.livingSituation,
      primary_concern: s.primaryConcern,
      shipping_name: s.shippingName,
      shipping_address: s.shippingAddress,
      recipient_zip: s.recipientZip,
      processor_subscription_id: s.processorSubscriptionId,
      processor_customer_id: s.processorCustomerId,
      paid_at: s.paidAt?.toISOString() ?? null,
      canceled_at: s.canceledAt?.toISOString() ?? null,
      reconciled_at: s.reconciledAt?.toISOString() ?? null,
      created_at: s.createdAt.toISOString(),
      updated_at: s.updatedAt.toISOString(),
      history: history.map(historyItem),
    };
  }
}

function historyItem(h: SubscriptionHistoryEntry): SubscriptionHistoryItemDto {
  return {
    event_id: h.eventId,
    type: h.type,
    from: h.fromStatus,
    to: h.toStatus,
    event_created_at: h.eventCreatedAt.toISOString(),
    received_at: h.receivedAt.toISOString(),
    source: h.source,
  };
}
