import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { SubscriptionLifecycleModule } from '../subscription/subscription-lifecycle.module';
import { SubscriptionModule } from '../subscription/subscription.module';
import { ClockModule } from '../common/clock/clock.module';
import { RateLimitModule } from '../common/throttling/rate-limit.module';
import { ConfigModule } from '../config/config.module';
import { DatabaseModule } from '../database/database.module';
import { DeviceModule } from '../device/device.module';
import { OrgModule } from '../org/org.module';

/**
 * The services the command line needs, on the same configuration and database as the server.
 * RateLimitModule only satisfies the guards of feature controllers; the CLI serves no HTTP.
 */
@Module({
  imports: [
    ConfigModule,
    DatabaseModule,
    ClockModule,
    RateLimitModule,
    OrgModule,
    AuthModule,
    SubscriptionModule,
    SubscriptionLifecycleModule,
    DeviceModule,
  ],
})
export class CliModule {}
