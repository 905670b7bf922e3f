import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveryWake } from './delivery-wake.service';
import { EventOutbox } from './event-outbox.service';
import { WebhookDelivery } from './outgoing-webhook-delivery.entity';
import { WebhookEndpoint } from './outgoing-webhook-endpoint.entity';
import { OutgoingEvent } from './outgoing-webhook-event.entity';

/**
 * The outbox alone: what features that report changes import (EventOutbox). The endpoint API and
 * the delivery worker are in OutgoingWebhookApiModule.
 */
@Module({
  imports: [TypeOrmModule.forFeature([WebhookEndpoint, OutgoingEvent, WebhookDelivery])],
  providers: [EventOutbox, DeliveryWake],
  exports: [EventOutbox, DeliveryWake],
})
export class OutgoingWebhookModule {}
