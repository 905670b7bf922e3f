import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { DomainError } from '../errors/domain.error';
import { ErrorCode } from '../errors/error-code.enum';
import { addressGroup } from './client-address';
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
 * How many times the per-address allowance one key (a device_id) may fail from all addresses
 * together: high, so strangers spread over many addresses cannot lock a device out in a minute.
 */
const ALL_ADDRESSES_FACTOR = 10;

/**
 * A limit that counts failed attempts only, per key (a device_id) and client address (grouped as
 * the per-address limits are), with a much higher ceiling for the key from all addresses. The
 * caller decides which requests a block applies to (a device that proves its key is never asked).
 */
@Injectable()
export class FailedAttempts {
  constructor(
    private readonly limits: RateLimitService,
    private readonly config: AppConfig,
  ) {}

  /** Throws 429 while the key has failed too often from this address, or from all together. */
  async assertNotBlocked(policy: RateLimitPolicy, key: string, address?: string): Promise<void> {
    const [here, everywhere] = await Promise.all([
      this.limits.blockedFor(this.name(policy), this.fromAddress(key, address)),
      this.limits.blockedFor(this.allName(policy), key),
    ]);
    const seconds = Math.max(here, everywhere);
    if (seconds > 0) throw rateLimited(seconds);
  }

  /** Counts one failure; throws 429 when the key is (now) over either allowance. */
  async recordFailure(policy: RateLimitPolicy, key: string, address?: string): Promise<void> {
    const limit = this.config.rateLimits[policy];
    const [here, everywhere] = await Promise.all([
      this.limits.hit(this.name(policy), this.fromAddress(key, address), limit, WINDOW_MS),
      this.limits.hit(this.allName(policy), key, limit * ALL_ADDRESSES_FACTOR, WINDOW_MS),
    ]);
    const blocked = [here, everywhere].filter((r) => r.isBlocked);
    if (blocked.length > 0) {
      throw rateLimited(Math.max(...blocked.map((r) => r.timeToBlockExpire)));
    }
  }

  private fromAddress(key: string, address: string | undefined): string {
    return `${key}\n${addressGroup(address)}`;
  }

  private name(policy: RateLimitPolicy): string {
    return `${policy}:failures`;
  }

  private allName(policy: RateLimitPolicy): string {
    return `${policy}:failures:all`;
  }
}
