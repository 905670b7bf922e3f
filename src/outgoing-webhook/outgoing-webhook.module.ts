import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { PersonalDataModule } from '../personal-data/personal-data.module';
import { DeliveryWake } from './outbox/delivery-wake.service';
import { EventOutbox } from './outbox/event-outbox.service';
import { SubjectDeliveries } from './delivery/subject-deliveries.service';
import { WebhookDelivery } from './delivery/outgoing-webhook-delivery.entity';
import { WebhookEndpoint } from './endpoints/outgoing-webhook-endpoint.entity';
import { OutgoingEvent } from './outbox/outgoing-webhook-event.entity';

/**
 * The outbox alone: what features that report changes import (EventOutbox). The endpoint API and
 * the delivery worker are in OutgoingWebhookApiModule.
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([WebhookEndpoint, OutgoingEvent, WebhookDelivery]),
    PersonalDataModule,
  ],
  providers: [EventOutbox, DeliveryWake, SubjectDeliveries],
  // Re-exported: what reports a sealed event, and the sender that opens it, hold the keys too.
  exports: [EventOutbox, DeliveryWake, SubjectDeliveries, PersonalDataModule],
})
export class OutgoingWebhookModule {}
