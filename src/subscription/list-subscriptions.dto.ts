import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { IsOmittable } from '../common/validation/omittable.decorator';
import { PageQueryDto } from '../common/pagination/page-query.dto';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from './subscription.entity';

export class ListSubscriptionsDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: SUBSCRIPTION_STATUSES })
  @IsOmittable()
  @IsIn(SUBSCRIPTION_STATUSES)
  status?: SubscriptionStatus;
}
