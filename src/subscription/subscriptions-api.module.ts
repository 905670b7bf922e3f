import { Module } from '@nestjs/common';
import { FulfilmentGuard } from './fulfilment.guard';
import { ReconcileScheduler } from './lifecycle/reconcile.scheduler';
import { SubscriptionLifecycleModule } from './lifecycle/subscription-lifecycle.module';
import { SubscriptionModule } from './subscription.module';
import { SubscriptionDeviceModule } from './shipping/subscription-device.module';
import { SubscriptionsController } from './subscriptions.controller';

/** The server's part: the operators' routes and the periodic reconcile pass (not in the CLI). */
@Module({
  imports: [SubscriptionModule, SubscriptionLifecycleModule, SubscriptionDeviceModule],
  controllers: [SubscriptionsController],
  providers: [FulfilmentGuard, ReconcileScheduler],
})
export class SubscriptionsApiModule {}
