import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsEmail, IsIn, IsString, type ValidationArguments } from 'class-validator';
import { MaxStoredLength } from '../common/validation/stored-length';
import { IsOmittable } from '../common/validation/omittable.decorator';
import { PageQueryDto } from '../common/pagination/page-query.dto';
import { QueryBoolean } from '../common/validation/query-boolean.decorator';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from './subscription.entity';
import type { SubscriptionPage } from './subscription.service';

/** Trimmed before it is checked, as the search trims it anyway (normalizeEmail). */
const trimmed = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' ? value.trim() : value;

/**
 * A space inside is most often a `+` sent unencoded: query decoding makes it a space, so
 * `casey+care@example.com` arrives as `casey care@example.com`.
 */
const emailMessage = ({ value }: ValidationArguments): string =>
  typeof value === 'string' && /\s/.test(value)
    ? 'email has a space inside: in a query string "+" means a space; send a "+" of the address as %2B'
    : 'email must be an email';

export class ListSubscriptionsDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: SUBSCRIPTION_STATUSES })
  @IsOmittable()
  @IsIn(SUBSCRIPTION_STATUSES)
  status?: SubscriptionStatus;

  /** An exact match (after trimming and lower-casing) on the checkout's or the processor's email. */
  @ApiPropertyOptional({ example: 'pat@example.com', maxLength: 320 })
  @Transform(trimmed)
  @IsOmittable()
  @IsString()
  @MaxStoredLength(320)
  @IsEmail({}, { message: emailMessage })
  email?: string;

  /** true: only paid or past_due records with no device shipped yet, not erased; false: all. */
  @ApiPropertyOptional({
    type: Boolean,
    description:
      'true: only live (paid, past_due) records that no device has been shipped for yet, erased ' +
      'ones left out; false or absent: no such filter',
  })
  @IsOmittable()
  @QueryBoolean()
  awaiting_device?: boolean;
}

/** The page the service reads, from the query as the pipe (or the CLI's dtoFrom) left it. */
export function subscriptionPage(query: ListSubscriptionsDto): SubscriptionPage {
  const { awaiting_device: awaiting, ...rest } = query;
  return { ...rest, awaitingDevice: awaiting === true };
}
