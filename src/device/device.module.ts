import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { OrgModule } from '../org/org.module';
import { Device } from './device.entity';
import { DeviceService } from './device.service';

/** The device registry without HTTP: what the command line and other features use. */
@Module({
  imports: [TypeOrmModule.forFeature([Device]), OrgModule],
  providers: [DeviceService],
  exports: [DeviceService, TypeOrmModule],
})
export class DeviceModule {}
