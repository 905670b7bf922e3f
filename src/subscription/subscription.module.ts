import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { AuditTrailModule } from '../audit/audit-trail.module';
import { OutgoingWebhookModule } from '../outgoing-webhook/outgoing-webhook.module';
import { SubscriptionHistoryEntry } from './lifecycle/subscription-history.entity';
import { Subscription } from './subscription.entity';
import { SubscriptionService } from './subscription.service';
import { SubscriptionPersonalData } from './care-data/subscription-personal-data.service';
import { SubscriptionSealing } from './care-data/subscription-sealing.service';
import { SubscriptionExporter } from './care-data/subscription-exporter.service';

/** Subscription records without the HTTP routes, so the command line can use them too. */
@Module({
  imports: [
    TypeOrmModule.forFeature([Subscription, SubscriptionHistoryEntry]),
    OutgoingWebhookModule,
    AuditTrailModule,
  ],
  providers: [
    SubscriptionService,
    SubscriptionPersonalData,
    SubscriptionSealing,
    SubscriptionExporter,
  ],
  exports: [
    SubscriptionService,
    SubscriptionPersonalData,
    SubscriptionSealing,
    SubscriptionExporter,
  ],
})
export class SubscriptionModule {}
