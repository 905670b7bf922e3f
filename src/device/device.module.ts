import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { retention } from '../database/housekeeping.module';
import { OrgModule } from '../org/org.module';
import { OutgoingWebhookModule } from '../outgoing-webhook/outgoing-webhook.module';
import { DeviceAssertionJti } from './tokens/device-assertion-jti.entity';
import { DeviceAudit } from './device-audit';
import { DEVICE_JTI_RETENTION } from './tokens/device-jti-retention';
import { DeviceJtiStore } from './tokens/device-jti.store';
import { DeviceTokenEvents } from './tokens/device-token-events.service';
import { Device } from './device.entity';
import { DeviceService } from './registry/device.service';
import { DeviceBatch } from './batch/device-batch.service';
import { DeviceLiveness } from './liveness/device-liveness.service';
import { DevicePresence } from './liveness/device-presence.service';
import { DeviceSummaryService } from './liveness/device-summary.service';
import { AuditLogModule } from '../common/logging/audit-log.module';
import { AuditTrailModule } from '../audit/audit-trail.module';

/**
 * The device registry without HTTP: what the command line and other features use. Expired
 * assertion ids go in the periodic housekeeping pass (DEVICE_JTI_RETENTION).
 */
@Module({
  imports: [
    TypeOrmModule.forFeature([Device, DeviceAssertionJti]),
    AuditLogModule,
    AuditTrailModule,
    OrgModule,
    OutgoingWebhookModule,
  ],
  providers: [
    DeviceService,
    DeviceBatch,
    DeviceJtiStore,
    DeviceTokenEvents,
    DeviceAudit,
    DevicePresence,
    DeviceLiveness,
    DeviceSummaryService,
    retention(DEVICE_JTI_RETENTION),
  ],
  exports: [
    DeviceService,
    DeviceBatch,
    DeviceJtiStore,
    DeviceTokenEvents,
    DeviceAudit,
    DevicePresence,
    DeviceLiveness,
    DeviceSummaryService,
  ],
})
export class DeviceModule {}
