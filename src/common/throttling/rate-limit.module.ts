import { Global, Module } from '@nestjs/common';
import { FailedAttempts } from './failed-attempts';
import { RateLimitGuard } from './rate-limit.guard';
import { RateLimitService } from './rate-limit.service';

@Global()
@Module({
  providers: [RateLimitService, RateLimitGuard, FailedAttempts],
  exports: [RateLimitService, RateLimitGuard, FailedAttempts],
})
export class RateLimitModule {}
