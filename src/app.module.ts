import { Module } from '@nestjs/common';
import { APP_FILTER, APP_PIPE } from '@nestjs/core';
import { LoggerModule } from 'nestjs-pino';
import { ProblemDetailsFilter } from './common/errors/problem-details.filter';
import { ClockModule } from './common/clock/clock.module';
import { LifecycleModule } from './common/lifecycle/lifecycle.module';
import { loggerOptions } from './common/logging/logger.options';
import { AppValidationPipe } from './common/validation/app-validation.pipe';
import { CheckoutModule } from './checkout/checkout.module';
import { RateLimitModule } from './common/throttling/rate-limit.module';
import { AuthModule } from './auth/auth.module';
import { AppConfig } from './config/app-config';
import { ConfigModule } from './config/config.module';
import { DatabaseModule } from './database/database.module';
import { HousekeepingSchedulerModule } from './database/housekeeping.module';
import { DeviceApiModule } from './device/device-api.module';
import { HealthModule } from './health/health.module';
import { MetricsModule } from './metrics/metrics.module';
import { OrgApiModule } from './org/org-api.module';
import { OutgoingWebhookApiModule } from './outgoing-webhook/outgoing-webhook-api.module';
import { PlansModule } from './plans/plans.module';
import { ConsolePagesModule } from './console-pages/console-pages.module';
import { UserApiModule } from './users/user-api.module';
import { SubscriptionsApiModule } from './subscription/subscriptions-api.module';
import { ProcessorWebhookModule } from './processor-webhook/processor-webhook.module';
import { AuditApiModule } from './audit/audit-api.module';
import { PersonalDataModule } from './personal-data/personal-data.module';
import { PreviousKeysNotice } from './personal-data/previous-keys-notice.service';

@Module({
  imports: [
    ConfigModule,
    LifecycleModule,
    LoggerModule.forRootAsync({ inject: [AppConfig], useFactory: loggerOptions }),
    DatabaseModule,
    HousekeepingSchedulerModule,
    RateLimitModule,
    ClockModule,
    HealthModule,
    MetricsModule,
    OrgApiModule,
    PlansModule,
    ConsolePagesModule,
    CheckoutModule,
    ProcessorWebhookModule,
    SubscriptionsApiModule,
    AuthModule,
    UserApiModule,
    DeviceApiModule,
    OutgoingWebhookApiModule,
    AuditApiModule,
    PersonalDataModule,
  ],
  providers: [
    // The server's boot alone says whether DATA_ENCRYPTION_PREVIOUS_KEYS is still needed.
    PreviousKeysNotice,
    { provide: APP_FILTER, useClass: ProblemDetailsFilter },
    { provide: APP_PIPE, useClass: AppValidationPipe },
  ],
})
export class AppModule {}
