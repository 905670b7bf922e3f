import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { DeliveryWake } from './outbox/delivery-wake.service';
import { EventOutbox } from './outbox/event-outbox.service';
import { WebhookDelivery } from './delivery/outgoing-webhook-delivery.entity';
import { WebhookEndpoint } from './endpoints/outgoing-webhook-endpoint.entity';
import { OutgoingEvent } from './outbox/outgoing-webhook-event.entity';

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
