import { Module } from '@nestjs/common';
import { AuditTrailModule } from '../../audit/audit-trail.module';
import { DeviceModule } from '../../device/device.module';
import { OutgoingWebhookModule } from '../../outgoing-webhook/outgoing-webhook.module';
import { SubscriptionDevices } from './subscription-devices.service';
import { SubscriptionModule } from '../subscription.module';
import { SubscriptionShipping } from './subscription-shipping.service';
import { ShippableDevices } from './shippable-devices.service';

/**
 * The device of a subscription (contract section 10): shipping it (the routes and the CLI) and its
 * activation, which the token exchange tells through the listener SubscriptionDevices registers
 * with DeviceModule's DeviceTokenEvents. The device registry's services only, never its routes.
 */
@Module({
  imports: [SubscriptionModule, DeviceModule, OutgoingWebhookModule, AuditTrailModule],
  providers: [SubscriptionShipping, SubscriptionDevices, ShippableDevices],
  exports: [SubscriptionShipping, SubscriptionDevices, ShippableDevices],
})
export class SubscriptionDeviceModule {}
