import { Module } from '@nestjs/common';
import { SubscriptionModule } from '../subscription/subscription.module';
import { CheckoutController } from './checkout.controller';
import { CheckoutService } from './checkout.service';
import { PaymentProcessorModule } from '../processor/payment-processor.module';
import { OutgoingWebhookModule } from '../outgoing-webhook/outgoing-webhook.module';

@Module({
  imports: [SubscriptionModule, PaymentProcessorModule, OutgoingWebhookModule],
  controllers: [CheckoutController],
  providers: [CheckoutService],
})
export class CheckoutModule {}
