import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditLogModule } from '../common/logging/audit-log.module';
import { AuditTrailModule } from '../audit/audit-trail.module';
import { retention } from '../database/housekeeping.module';
import { OrgModule } from '../org/org.module';
import { systemResolver, WEBHOOK_RESOLVER } from './endpoints/outgoing-webhook-address';
import { WebhookDelivery } from './delivery/outgoing-webhook-delivery.entity';
import { WebhookEndpoint } from './endpoints/outgoing-webhook-endpoint.entity';
import { OutgoingEvent } from './outbox/outgoing-webhook-event.entity';
import { OUTGOING_EVENT_RETENTION } from './outgoing-webhook-retention';
import { OutgoingWebhookModule } from './outgoing-webhook.module';
import { WebhookDeliveryService } from './delivery/webhook-delivery.service';
import { WebhookDeliveryStore } from './delivery/webhook-delivery.store';
import { WebhookEndpointService } from './endpoints/webhook-endpoint.service';
import { WebhookSecretRekey } from './endpoints/webhook-secret-rekey.service';

/**
 * Endpoints and deliveries without HTTP or the worker: what the command line runs on. The running
 * service adds the routes and the sender (OutgoingWebhookApiModule).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookEndpoint, OutgoingEvent, WebhookDelivery]),
    AuditLogModule,
    AuditTrailModule,
    OutgoingWebhookModule,
    OrgModule,
  ],
  providers: [
    WebhookEndpointService,
    WebhookSecretRekey,
    WebhookDeliveryService,
    WebhookDeliveryStore,
    { provide: WEBHOOK_RESOLVER, useValue: systemResolver },
    retention(OUTGOING_EVENT_RETENTION),
  ],
  exports: [
    WebhookEndpointService,
    WebhookSecretRekey,
    WebhookDeliveryService,
    WebhookDeliveryStore,
    OutgoingWebhookModule,
    WEBHOOK_RESOLVER,
  ],
})
export class OutgoingWebhookEndpointsModule {}
