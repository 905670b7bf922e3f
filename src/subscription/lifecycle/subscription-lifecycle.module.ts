import { AuditTrailModule } from '../../audit/audit-trail.module';
import { Module } from '@nestjs/common';
import { PaymentProcessorModule } from '../../processor/payment-processor.module';
import { OutgoingWebhookModule } from '../../outgoing-webhook/outgoing-webhook.module';
import { SubscriptionEventHandlers } from './subscription-event.handlers';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import { SubscriptionReconciler } from './subscription-reconciler.service';
import { SubscriptionModule } from '../subscription.module';
import { SubscriptionErasure } from '../care-data/subscription-erasure.service';
import { SubscriptionRetention } from '../care-data/subscription-retention.service';
import { SubscriptionDeviceCustody } from '../shipping/subscription-device-custody.service';
import { housekeepingTask } from '../../database/housekeeping.module';

/**
 * What moves subscriptions: the processor's events (webhook), the reconcile pass, and erasure
 * (on request and by retention).
 */
@Module({
  imports: [SubscriptionModule, PaymentProcessorModule, OutgoingWebhookModule, AuditTrailModule],
  providers: [
    SubscriptionLifecycleService,
    SubscriptionDeviceCustody,
    SubscriptionEventHandlers,
    SubscriptionReconciler,
    SubscriptionErasure,
    SubscriptionRetention,
    housekeepingTask('subscriptions_erased', SubscriptionRetention),
  ],
  exports: [
    SubscriptionLifecycleService,
    SubscriptionEventHandlers,
    SubscriptionReconciler,
    SubscriptionErasure,
  ],
})
export class SubscriptionLifecycleModule {}
