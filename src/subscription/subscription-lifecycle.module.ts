import { Module } from '@nestjs/common';
import { PaymentProcessorModule } from '../processor/payment-processor.module';
import { OutgoingWebhookModule } from '../outgoing-webhook/outgoing-webhook.module';
import { SubscriptionEventHandlers } from './subscription-event.handlers';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import { SubscriptionReconciler } from './subscription-reconciler.service';
import { SubscriptionModule } from './subscription.module';

/** What moves subscriptions: the processor's events (webhook) and the reconcile pass. */
@Module({
  imports: [SubscriptionModule, PaymentProcessorModule, OutgoingWebhookModule],
  providers: [SubscriptionLifecycleService, SubscriptionEventHandlers, SubscriptionReconciler],
  exports: [SubscriptionLifecycleService, SubscriptionEventHandlers, SubscriptionReconciler],
})
export class SubscriptionLifecycleModule {}
