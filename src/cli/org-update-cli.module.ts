import { Module } from '@nestjs/common';
import { DeviceModule } from '../device/device.module';
import { OrgModule } from '../org/org.module';

/**
 * What `org:update` runs on: the organizations, and the devices, whose deadlines follow the
 * threshold through the listener DeviceModule registers with OrgService. Composed here because
 * org/ sits below device/ and imports no feature above it.
 */
@Module({ imports: [OrgModule, DeviceModule] })
export class OrgUpdateCliModule {}
