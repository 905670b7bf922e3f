import { ApiProperty } from '@nestjs/swagger';
import { AuditEventDto } from '../audit/audit-event-view.dto';
import { mapPage, type Page } from '../common/pagination/page';
import {
  HISTORY_SOURCES,
  type HistorySource,
  SubscriptionHistoryEntry,
} from './lifecycle/subscription-history.entity';
import type { SubscriptionDetail } from './subscription.service';
import type { SubscriptionExport } from './care-data/subscription-exporter.service';
import type { SubjectDelivery } from '../outgoing-webhook/delivery/subject-deliveries.service';
import {
  SUBSCRIPTION_STATUSES,
  type SubscriptionRecord,
  type SubscriptionStatus,
} from './subscription.entity';

const text = { type: String, nullable: true } as const;
const time = { type: String, nullable: true, description: 'ISO 8601' } as const;

export class SubscriptionCustomerDto {
  @ApiProperty({ ...text, description: 'From the processor; before it reports, from the form' })
  email!: string | null;
  @ApiProperty(text) name!: string | null;
  @ApiProperty(text) phone!: string | null;
}

export class SubscriptionRecipientDto {
  @ApiProperty(text) name!: string | null;
  @ApiProperty({ ...text, example: 'livesalone' }) living_situation!: string | null;
  @ApiProperty({ ...text, example: 'medicationreminders' }) primary_concern!: string | null;
  @ApiProperty({ ...text, example: '62701' }) zip!: string | null;
}

export class SubscriptionShippingDto {
  @ApiProperty(text) name!: string | null;
  @ApiProperty({ ...text, example: '1 Main St, Apt 2, Springfield, IL 62701, US' })
  address!: string | null;
}

export class SubscriptionProcessorDto {
  @ApiProperty(text) checkout_session_id!: string | null;
  @ApiProperty(text) subscription_id!: string | null;
  @ApiProperty(text) customer_id!: string | null;
}

/** The device shipped for the record (contract section 10); a replacement unit replaces it. */
export class SubscriptionDeviceDto {
  @ApiProperty({ example: 'hub-0042' }) device_id!: string;
  @ApiProperty({ description: 'ISO 8601' }) assigned_at!: string;
  @ApiProperty({ ...time, description: 'Its first token after the assignment (ISO 8601)' })
  activated_at!: string | null;
  @ApiProperty({ ...text, example: 'UPS' }) carrier!: string | null;
  @ApiProperty({ ...text, description: 'Personal data: stored sealed (docs/privacy.md)' })
  tracking_number!: string | null;

  static from(s: SubscriptionRecord): SubscriptionDeviceDto | null {
    if (!s.deviceId || !s.deviceAssignedAt) return null;
    return {
      device_id: s.deviceId,
      assigned_at: s.deviceAssignedAt.toISOString(),
      activated_at: s.deviceActivatedAt?.toISOString() ?? null,
      carrier: s.deviceCarrier,
      tracking_number: s.trackingNumber ?? null,
    };
  }
}

/** One subscription as the people who ship devices see it (docs/checkout.md). */
export class SubscriptionRecordDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: SUBSCRIPTION_STATUSES }) status!: SubscriptionStatus;
  @ApiProperty({ description: 'ISO 8601' }) created_at!: string;
  @ApiProperty({ ...time, description: 'When it was paid; never before created_at (ISO 8601)' })
  paid_at!: string | null;
  @ApiProperty(time) canceled_at!: string | null;
  @ApiProperty({ ...time, description: 'When its checkout expired unfinished (ISO 8601)' })
  expired_at!: string | null;
  @ApiProperty(text) coupon!: string | null;
  @ApiProperty({ type: SubscriptionCustomerDto }) customer!: SubscriptionCustomerDto;
  @ApiProperty({ type: SubscriptionRecipientDto }) recipient!: SubscriptionRecipientDto;
  @ApiProperty({ type: SubscriptionShippingDto }) shipping!: SubscriptionShippingDto;
  @ApiProperty({ type: SubscriptionProcessorDto }) processor!: SubscriptionProcessorDto;
  @ApiProperty({ ...time, description: 'When its personal data was erased (ISO 8601)' })
  erased_at!: string | null;
  @ApiProperty({
    type: SubscriptionDeviceDto,
    nullable: true,
    description: 'The device shipped for it; null before any assignment',
  })
  device!: SubscriptionDeviceDto | null;

  /** Customer details: only here, in the export and in the CLI, never in logs (docs/privacy.md). */
  static from(s: SubscriptionRecord): SubscriptionRecordDto {
    return {
      id: s.id,
      status: s.status,
      created_at: s.createdAt.toISOString(),
      paid_at: s.paidAt?.toISOString() ?? null,
      canceled_at: s.canceledAt?.toISOString() ?? null,
      expired_at: s.expiredAt?.toISOString() ?? null,
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
      erased_at: s.erasedAt?.toISOString() ?? null,
      device: SubscriptionDeviceDto.from(s),
    };
  }
}

export class SubscriptionListCustomerDto {
  @ApiProperty(text) name!: string | null;
}

/** A list's item: no personal data but the customer's name (contract section 9). */
export class SubscriptionListItemDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ enum: SUBSCRIPTION_STATUSES }) status!: SubscriptionStatus;
  @ApiProperty({ description: 'ISO 8601' }) created_at!: string;
  @ApiProperty(time) paid_at!: string | null;
  @ApiProperty(time) canceled_at!: string | null;
  @ApiProperty(text) coupon!: string | null;
  @ApiProperty({ type: SubscriptionListCustomerDto }) customer!: SubscriptionListCustomerDto;
  @ApiProperty(time) erased_at!: string | null;

  static from(s: SubscriptionRecord): SubscriptionListItemDto {
    return {
      id: s.id,
      status: s.status,
      created_at: s.createdAt.toISOString(),
      paid_at: s.paidAt?.toISOString() ?? null,
      canceled_at: s.canceledAt?.toISOString() ?? null,
      coupon: s.coupon,
      customer: { name: s.customerName ?? s.name },
      erased_at: s.erasedAt?.toISOString() ?? null,
    };
  }
}

/** An event that touched the record; `from` = `to` when it only filled fields. */
export class SubscriptionHistoryItemDto {
  @ApiProperty({ example: 'evt_1Q2w3E4r5T6y7U8i' }) event_id!: string;
  @ApiProperty({ example: 'checkout.session.completed' }) type!: string;
  @ApiProperty({ enum: SUBSCRIPTION_STATUSES }) from!: SubscriptionStatus;
  @ApiProperty({ enum: SUBSCRIPTION_STATUSES }) to!: SubscriptionStatus;
  @ApiProperty({ description: "The event's `created` (ISO 8601)" }) event_created_at!: string;
  @ApiProperty({ description: 'ISO 8601' }) received_at!: string;
  @ApiProperty({ enum: HISTORY_SOURCES }) source!: HistorySource;

  static from(h: SubscriptionHistoryEntry): SubscriptionHistoryItemDto {
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
}

export class SubscriptionDetailDto extends SubscriptionRecordDto {
  @ApiProperty({
    type: [SubscriptionHistoryItemDto],
    description: 'In the order the events happened (their `created`; ties in arrival order)',
  })
  history!: SubscriptionHistoryItemDto[];

  static withHistory({ subscription, history }: SubscriptionDetail): SubscriptionDetailDto {
    return {
      ...SubscriptionRecordDto.from(subscription),
      history: history.map((h) => SubscriptionHistoryItemDto.from(h)),
    };
  }
}

export class SubscriptionListDto {
  @ApiProperty({ type: [SubscriptionListItemDto] }) items!: SubscriptionListItemDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next page; null on the last page',
  })
  next_cursor!: string | null;

  static from(page: Page<SubscriptionRecord>): SubscriptionListDto {
    return mapPage(page, (s) => SubscriptionListItemDto.from(s));
  }
}

/** A delivery of one of the record's events: who received what, and when. */
export class SubscriptionDeliveryDto {
  @ApiProperty({ format: 'uuid' }) endpoint_id!: string;
  @ApiProperty({ example: 'https://fulfilment.example.com/hooks/care' }) url!: string;
  @ApiProperty({ format: 'uuid' }) event_id!: string;
  @ApiProperty({ example: 'subscription.paid' }) type!: string;
  @ApiProperty({ description: 'ISO 8601' }) delivered_at!: string;

  static from(d: SubjectDelivery): SubscriptionDeliveryDto {
    return {
      endpoint_id: d.endpointId,
      url: d.url,
      event_id: d.eventId,
      type: d.type,
      delivered_at: d.deliveredAt.toISOString(),
    };
  }
}

/** What is held about one subscription (contract section 9). */
export class SubscriptionExportDto {
  @ApiProperty({ type: SubscriptionDetailDto }) subscription!: SubscriptionDetailDto;
  @ApiProperty({
    type: [SubscriptionDeliveryDto],
    description: "Deliveries made of the record's events, oldest first",
  })
  deliveries!: SubscriptionDeliveryDto[];
  @ApiProperty({
    type: [AuditEventDto],
    description: 'Audit events whose subject is this record (who looked at it), oldest first',
  })
  access!: AuditEventDto[];

  static from(e: SubscriptionExport): SubscriptionExportDto {
    return {
      subscription: SubscriptionDetailDto.withHistory(e),
      deliveries: e.deliveries.map((d) => SubscriptionDeliveryDto.from(d)),
      access: e.access,
    };
  }
}
