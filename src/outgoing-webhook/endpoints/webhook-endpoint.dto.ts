import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayUnique,
  IsArray,
  IsBoolean,
  IsIn,
  IsString,
  IsUrl,
} from 'class-validator';
import { IsOmittable } from '../../common/validation/omittable.decorator';
import { mapPage, type Page } from '../../common/pagination/page';
import { MaxStoredLength } from '../../common/validation/stored-length';
import { PageQueryDto } from '../../common/pagination/page-query.dto';
import { webhookUrlAsStored } from './outgoing-webhook-address';
import type { WebhookEndpoint } from './outgoing-webhook-endpoint.entity';
import {
  DELIVERY_FAILURE_REASONS,
  DELIVERY_STATUSES,
  SUBSCRIBABLE_TYPES,
} from '../outgoing-webhook.types';
import type { DeliveryStatus } from '../outgoing-webhook.types';
import type { DeliveryRow } from '../delivery/webhook-delivery.service';
import type { CreatedEndpoint } from './webhook-endpoint.service';

const URL_RULES = { require_protocol: true, require_tld: false, protocols: ['http', 'https'] };
const URL_MAX = 2048;
const DESCRIPTION_MAX = 500;
const URL_DOC = { example: 'https://hooks.example.com/device-care', maxLength: URL_MAX };
const TYPES_DOC = {
  isArray: true,
  enum: [...SUBSCRIBABLE_TYPES],
  description: 'Defaults to every type the organization may receive',
};

/** `url`'s rules, in the creation (required) and the update (optional). */
const UrlRules = () =>
  applyDecorators(IsUrl(URL_RULES), MaxStoredLength(URL_MAX, webhookUrlAsStored));

/** The optional fields' documentation and rules, the same in the creation and the update. */
const DescriptionField = () =>
  applyDecorators(
    ApiPropertyOptional({ maxLength: DESCRIPTION_MAX }),
    IsOmittable(),
    IsString(),
    MaxStoredLength(DESCRIPTION_MAX),
  );
const EventTypesField = () =>
  applyDecorators(
    ApiPropertyOptional(TYPES_DOC),
    IsOmittable(),
    IsArray(),
    ArrayMaxSize(SUBSCRIBABLE_TYPES.length),
    ArrayUnique(),
    IsIn(SUBSCRIBABLE_TYPES, { each: true }),
  );

export class CreateWebhookEndpointDto {
  @ApiProperty(URL_DOC)
  @UrlRules()
  url!: string;

  @DescriptionField()
  description?: string;

  @EventTypesField()
  event_types?: string[];
}

/**
 * Every field of the creation optional (the same rules), plus `enabled`. A `PartialType` would
 * need `{ skipNullProperties: false }`: by default it adds `@IsOptional()`, which lets null in.
 */
export class UpdateWebhookEndpointDto {
  @ApiPropertyOptional(URL_DOC)
  @IsOmittable()
  @UrlRules()
  url?: string;

  @DescriptionField()
  description?: string;

  @EventTypesField()
  event_types?: string[];

  @ApiPropertyOptional({ description: 'Enabling again sends only events stored from then on' })
  @IsOmittable()
  @IsBoolean()
  enabled?: boolean;
}

export class WebhookEndpointDto {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() url!: string;
  @ApiProperty({ type: String, nullable: true }) description!: string | null;
  @ApiProperty({ isArray: true, enum: [...SUBSCRIBABLE_TYPES] }) event_types!: string[];
  @ApiProperty() enabled!: boolean;
  @ApiProperty({ description: 'ISO 8601' }) created_at!: string;

  static from(e: WebhookEndpoint): WebhookEndpointDto {
    return {
      id: e.id,
      url: e.url,
      description: e.description,
      event_types: e.eventTypes,
      enabled: e.enabled,
      created_at: e.createdAt.toISOString(),
    };
  }
}

export class WebhookEndpointCreatedDto extends WebhookEndpointDto {
  @ApiProperty({
    example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    description: 'Shown here and by rotation only',
  })
  secret!: string;

  /**
   * The one answer with the plain secret, after the endpoint's fields. Not `from`: a static
   * override must take what the parent's takes (like `SubscriptionDetailDto.withHistory`).
   */
  static withSecret({ endpoint, secret }: CreatedEndpoint): WebhookEndpointCreatedDto {
    return { ...WebhookEndpointDto.from(endpoint), secret };
  }
}

/** Every endpoint of the organization (at most 10, so not paged). */
export class WebhookEndpointListDto {
  @ApiProperty({ type: [WebhookEndpointDto] }) items!: WebhookEndpointDto[];

  static from(endpoints: WebhookEndpoint[]): WebhookEndpointListDto {
    return { items: endpoints.map((e) => WebhookEndpointDto.from(e)) };
  }
}

export class WebhookSecretDto {
  @ApiProperty({ example: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw' }) secret!: string;

  static from(secret: string): WebhookSecretDto {
    return { secret };
  }
}

export class WebhookEventIdDto {
  @ApiProperty({ format: 'uuid' }) event_id!: string;

  static from(eventId: string): WebhookEventIdDto {
    return { event_id: eventId };
  }
}

/** Through `new Date`: a raw SQL row's timestamp may be a string (see `DeliveryRow`). */
const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

export class WebhookDeliveryDto {
  @ApiProperty({ format: 'uuid' }) event_id!: string;
  @ApiProperty({ example: 'subscription.paid' }) type!: string;
  @ApiProperty({ enum: DELIVERY_STATUSES }) status!: DeliveryStatus;
  @ApiProperty() attempts!: number;
  @ApiProperty({ type: Number, nullable: true }) last_status_code!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    example: 'http_503',
    description:
      "Why the last attempt failed, in the service's own words, never the receiver's answer: " +
      '`http_<status>` (an answer outside 2xx and 3xx), ' +
      DELIVERY_FAILURE_REASONS.map((r) => `\`${r}\``).join(', '),
  })
  last_error!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'ISO 8601' })
  next_attempt_at!: string | null;
  @ApiProperty({ type: String, nullable: true, description: 'ISO 8601' })
  delivered_at!: string | null;
  @ApiProperty({ description: 'ISO 8601' }) created_at!: string;

  static from(r: DeliveryRow): WebhookDeliveryDto {
    return {
      event_id: r.eventId,
      type: r.type,
      status: r.status,
      attempts: r.attempts,
      last_status_code: r.lastStatusCode,
      last_error: r.lastError,
      next_attempt_at: iso(r.nextAttemptAt),
      delivered_at: iso(r.deliveredAt),
      created_at: new Date(r.createdAt).toISOString(),
    };
  }
}

export class WebhookDeliveryListDto {
  @ApiProperty({ type: [WebhookDeliveryDto] }) items!: WebhookDeliveryDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor`; null on the last page',
  })
  next_cursor!: string | null;

  static from(page: Page<DeliveryRow>): WebhookDeliveryListDto {
    return mapPage(page, (r) => WebhookDeliveryDto.from(r));
  }
}

export class ListDeliveriesDto extends PageQueryDto {}
