import { Module } from '@nestjs/common';
import { CheckoutController } from './checkout.controller';
import { CheckoutService } from './checkout.service';
import { LeaseCheckoutHandler } from './lease-checkout.handler';
import { PaymentProcessorClient } from './payment-processor.client';
import { SubscriptionModule } from './subscription.module';

@Module({
  imports: [SubscriptionModule],
  controllers: [CheckoutController],
  providers: [PaymentProcessorClient, CheckoutService, LeaseCheckoutHandler],
  exports: [PaymentProcessorClient, LeaseCheckoutHandler],
})
export class CheckoutModule {}
