import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional } from 'class-validator';
import { PageQueryDto } from '../common/pagination/page-query.dto';
import { SUBSCRIPTION_STATUSES, type SubscriptionStatus } from './subscription.entity';

export class ListSubscriptionsDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: SUBSCRIPTION_STATUSES })
  @IsOptional()
  @IsIn(SUBSCRIPTION_STATUSES)
  status?: SubscriptionStatus;
}
