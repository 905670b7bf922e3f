import { Module } from '@nestjs/common';
import { AuditLog } from '../common/logging/audit-log';
import { retention } from '../database/housekeeping.module';
import { systemResolver, WEBHOOK_RESOLVER } from './outgoing-webhook-address';
import { OUTGOING_EVENT_RETENTION } from './outgoing-webhook-retention';
import { OutgoingWebhookModule } from './outgoing-webhook.module';
import { WebhookDeliveryService } from './webhook-delivery.service';
import { WebhookDeliveryStore } from './webhook-delivery.store';
import { WebhookDeliveryWorker } from './webhook-delivery.worker';
import { WebhookEndpointController } from './webhook-endpoint.controller';
import { WebhookEndpointService } from './webhook-endpoint.service';

/** The endpoint API and the delivery worker (every instance runs one). */
@Module({
  imports: [OutgoingWebhookModule],
  controllers: [WebhookEndpointController],
  providers: [
    WebhookEndpointService,
    WebhookDeliveryService,
    WebhookDeliveryStore,
    WebhookDeliveryWorker,
    AuditLog,
    { provide: WEBHOOK_RESOLVER, useValue: systemResolver },
    retention(OUTGOING_EVENT_RETENTION),
  ],
  exports: [WebhookEndpointService, WebhookDeliveryService],
})
export class OutgoingWebhookApiModule {}
