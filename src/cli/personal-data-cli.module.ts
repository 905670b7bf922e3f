import { Module } from '@nestjs/common';
import { AuditTrailModule } from '../audit/audit-trail.module';
import { OutgoingWebhookEndpointsModule } from '../outgoing-webhook/outgoing-webhook-endpoints.module';
import { PersonalDataModule } from '../personal-data/personal-data.module';

/**
 * What `data:rekey` runs on: the keys, and the webhook endpoints whose secrets the master key
 * wraps too. Only the command line imports it (the outgoing webhooks import PersonalDataModule).
 */
@Module({ imports: [PersonalDataModule, OutgoingWebhookEndpointsModule, AuditTrailModule] })
export class PersonalDataCliModule {}
