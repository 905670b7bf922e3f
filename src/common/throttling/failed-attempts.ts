import { Injectable } from '@nestjs/common';
import { RateLimitPolicy, rateLimited, RateLimitService } from './rate-limit.service';

/** The counter of failures, apart from the policy's per-request counters. */
const FAILURES = 'failures';

/**
 * A limit that counts failed attempts only, per key (a device_id): a stranger's failures can block
 * the key for a minute, and the caller decides which requests the block applies to (a device that
 * proves its key is never asked). Same allowance and window as the policy's per-request limit.
 */
@Injectable()
export class FailedAttempts {
  constructor(private readonly limits: RateLimitService) {}

  /** Throws 429 while the key has failed more than the allowance within the window. */
  async assertNotBlocked(policy: RateLimitPolicy, key: string): Promise<void> {
    const seconds = await this.limits.blockedFor(policy, FAILURES, key);
    if (seconds > 0) throw rateLimited(seconds);
  }

  /** Counts one failure; throws 429 when the key is (now) over the allowance. */
  async recordFailure(policy: RateLimitPolicy, key: string): Promise<void> {
    const record = await this.limits.hit(policy, FAILURES, key);
    if (record.isBlocked) throw rateLimited(record.timeToBlockExpire);
  }
}
