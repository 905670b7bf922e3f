import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { CheckoutModule } from '../checkout/checkout.module';
import { LeaseCheckoutHandler } from '../checkout/lease-checkout.handler';
import { CHECKOUT_PRODUCT_HANDLERS, CheckoutProductHandler } from './checkout-product.handler';
import { ProcessedWebhookEvent } from './processed-webhook-event.entity';
import { WebhookController } from './webhook.controller';
import { WebhookService } from './webhook.service';

@Module({
  imports: [TypeOrmModule.forFeature([ProcessedWebhookEvent]), CheckoutModule],
  controllers: [WebhookController],
  providers: [
    WebhookService,
    {
      // The product registry: one handler per `metadata.product` value.
      provide: CHECKOUT_PRODUCT_HANDLERS,
      inject: [LeaseCheckoutHandler],
      useFactory: (lease: LeaseCheckoutHandler): CheckoutProductHandler[] => [lease],
    },
  ],
})
export class WebhookModule {}
