import { Module } from '@nestjs/common';
import { SubscriptionModule } from '../subscription/subscription.module';
import { MetricsController } from './metrics.controller';
import { MetricsService } from './metrics.service';

@Module({
  imports: [SubscriptionModule],
  controllers: [MetricsController],
  providers: [MetricsService],
})
export class MetricsModule {}
