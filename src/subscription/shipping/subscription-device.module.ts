import { Module } from '@nestjs/common';
import { AuditTrailModule } from '../../audit/audit-trail.module';
import { DeviceModule } from '../../device/device.module';
import { OutgoingWebhookModule } from '../../outgoing-webhook/outgoing-webhook.module';
import { SubscriptionDevices } from './subscription-devices.service';
import { SubscriptionModule } from '../subscription.module';
import { SubscriptionShipping } from './subscription-shipping.service';

/**
 * The device of a subscription (contract section 10): shipping it (the routes and the CLI) and its
 * activation (the token exchange, src/device/device-api.module.ts). The device registry's service
 * only, never the device routes' module, which imports this one.
 */
@Module({
  imports: [SubscriptionModule, DeviceModule, OutgoingWebhookModule, AuditTrailModule],
  providers: [SubscriptionShipping, SubscriptionDevices],
  exports: [SubscriptionShipping, SubscriptionDevices],
})
export class SubscriptionDeviceModule {}
