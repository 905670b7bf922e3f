import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrgModule } from '../org/org.module';
import { DeviceAssertionJti } from './device-assertion-jti.entity';
import { DeviceAudit } from './device-audit';
import { DeviceJtiStore } from './device-jti.store';
import { Device } from './device.entity';
import { DeviceService } from './device.service';

/**
 * The device registry without HTTP: what the command line and other features use. DeviceJtiStore
 * is exported for the periodic housekeeping pass (its deleteExpired()).
 */
@Module({
  imports: [TypeOrmModule.forFeature([Device, DeviceAssertionJti]), OrgModule],
  providers: [DeviceService, DeviceJtiStore, DeviceAudit],
  exports: [DeviceService, DeviceJtiStore, DeviceAudit, TypeOrmModule],
})
export class DeviceModule {}
