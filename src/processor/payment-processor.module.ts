import { Module } from '@nestjs/common';
import { PaymentProcessorClient } from './payment-processor.client';

/** The processor's API client alone, for the checkout, the webhook, reconcile and the CLI. */
@Module({ providers: [PaymentProcessorClient], exports: [PaymentProcessorClient] })
export class PaymentProcessorModule {}
