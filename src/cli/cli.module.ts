import { Module } from '@nestjs/common';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { DeviceModule } from '../device/device.module';
import { OrgModule } from '../org/org.module';

/** The services the command line needs, on the same configuration and database as the server. */
@Module({ imports: [ConfigModule, DatabaseModule, OrgModule, DeviceModule] })
export class CliModule {}
