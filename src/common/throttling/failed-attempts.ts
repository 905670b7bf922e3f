import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { DomainError } from '../errors/domain.error';
import { ErrorCode } from '../errors/error-code.enum';
import type { RateLimitPolicy } from './rate-limit.guard';
import { RateLimitService } from './rate-limit.service';

const WINDOW_MS = 60_000;

/** The 429 every limit answers, with the seconds to wait. */
export function rateLimited(retryAfterSeconds: number): DomainError {
  const retryAfter = String(Math.max(1, Math.ceil(retryAfterSeconds)));
  return new DomainError(
    ErrorCode.RateLimited,
    `Too many requests; try again in ${retryAfter} seconds.`,
    undefined,
    { 'Retry-After': retryAfter },
  );
}

/**
 * A limit that counts failed attempts only, per key (a device_id): a stranger's failures can block
 * the key for a minute, and the caller decides which requests the block applies to (a device that
 * proves its key is never asked). Same allowance and window as the policy's per-request limit.
 */
@Injectable()
export class FailedAttempts {
  constructor(
    private readonly limits: RateLimitService,
    private readonly config: AppConfig,
  ) {}

  /** Throws 429 while the key has failed more than the allowance within the window. */
  async assertNotBlocked(policy: RateLimitPolicy, key: string): Promise<void> {
    const seconds = await this.limits.blockedFor(this.name(policy), key);
    if (seconds > 0) throw rateLimited(seconds);
  }

  /** Counts one failure; throws 429 when the key is (now) over the allowance. */
  async recordFailure(policy: RateLimitPolicy, key: string): Promise<void> {
    const limit = this.config.rateLimits[policy];
    const record = await this.limits.hit(this.name(policy), key, limit, WINDOW_MS);
    if (record.isBlocked) throw rateLimited(record.timeToBlockExpire);
  }

  private name(policy: RateLimitPolicy): string {
    return `${policy}:failures`;
  }
}
