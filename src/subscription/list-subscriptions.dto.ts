import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsString } from 'class-validator';
import { MaxStoredLength } from '../common/validation/stored-length';
import { IsOmittable } from '../common/validation/omittable.decorator';
import { PageQueryDto } from '../common/pagination/page-query.dto';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from './subscription.entity';

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
}
