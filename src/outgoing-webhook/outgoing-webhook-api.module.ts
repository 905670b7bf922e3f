import { Module } from '@nestjs/common';
import { OutgoingWebhookEndpointsModule } from './outgoing-webhook-endpoints.module';
import { WebhookDeliveryWorker } from './delivery/webhook-delivery.worker';
import { WebhookEndpointController } from './endpoints/webhook-endpoint.controller';

/** The endpoint API and the delivery worker (every instance of the service runs one). */
@Module({
  imports: [OutgoingWebhookEndpointsModule],
  controllers: [WebhookEndpointController],
  providers: [WebhookDeliveryWorker],
})
export class OutgoingWebhookApiModule {}
