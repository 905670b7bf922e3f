import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OutgoingWebhookModule } from '../outgoing-webhook/outgoing-webhook.module';
import { SubscriptionHistoryEntry } from './subscription-history.entity';
import { Subscription } from './subscription.entity';
import { SubscriptionService } from './subscription.service';

/** Subscription records without the HTTP routes, so the command line can use them too. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Subscription, SubscriptionHistoryEntry]),
    OutgoingWebhookModule,
  ],
  providers: [SubscriptionService],
  exports: [SubscriptionService],
})
export class SubscriptionModule {}
