import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditLogModule } from '../common/logging/audit-log.module';
import { retention } from '../database/housekeeping.module';
import { PaymentProcessorModule } from '../processor/payment-processor.module';
import { SubscriptionEventHandlers } from '../subscription/lifecycle/subscription-event.handlers';
import { SubscriptionLifecycleModule } from '../subscription/lifecycle/subscription-lifecycle.module';
import {
  PROCESSOR_EVENT_HANDLERS,
  ProcessorEventHandler,
} from '../processor/processor-event.handler';
import { ProcessedWebhookEvent } from './processed-webhook-event.entity';
import { PROCESSOR_WEBHOOK_RETENTION } from './processor-webhook-retention';
import { ProcessorWebhookController } from './processor-webhook.controller';
import { ProcessorWebhookService } from './processor-webhook.service';

@Module({
  imports: [
    TypeOrmModule.forFeature([ProcessedWebhookEvent]),
    AuditLogModule,
    PaymentProcessorModule,
    SubscriptionLifecycleModule,
  ],
  controllers: [ProcessorWebhookController],
  providers: [
    ProcessorWebhookService,
    retention(PROCESSOR_WEBHOOK_RETENTION),
    {
      // The event registry: one handler per `event.type`.
      provide: PROCESSOR_EVENT_HANDLERS,
      inject: [SubscriptionEventHandlers],
      useFactory: (subscriptions: SubscriptionEventHandlers): ProcessorEventHandler[] =>
        subscriptions.all(),
    },
  ],
})
export class ProcessorWebhookModule {}
