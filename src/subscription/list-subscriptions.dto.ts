import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString } from 'class-validator';
import { MaxStoredLength } from '../common/validation/stored-length';
import { IsOmittable } from '../common/validation/omittable.decorator';
import { PageQueryDto } from '../common/pagination/page-query.dto';
import { QueryBoolean } from '../common/validation/query-boolean.decorator';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from './subscription.entity';
import type { SubscriptionPage } from './subscription.service';

export class ListSubscriptionsDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: SUBSCRIPTION_STATUSES })
  @IsOmittable()
  @IsIn(SUBSCRIPTION_STATUSES)
  status?: SubscriptionStatus;

  /** An exact match (after trimming and lower-casing) on the checkout's or the processor's email. */
  @ApiPropertyOptional({ example: 'pat@example.com', maxLength: 320 })
  @IsOmittable()
  @IsString()
  @MaxStoredLength(320)
  @IsEmail()
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
