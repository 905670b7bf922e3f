import { Injectable } from '@nestjs/common';
import { addressGroup } from './client-address';
import {
  Pending,
  RateLimitPolicy,
  rateLimited,
  RateLimitService,
  whenReady,
} from './rate-limit.service';
import type { ThrottlerStorageRecord } from './fixed-window.storage';

/** The counters of failures, apart from the policy's per-request counters. */
const FROM_ADDRESS = 'failures';
const FROM_ALL = 'failures:all';

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
  constructor(private readonly limits: RateLimitService) {}

  /**
   * Throws 429 while the key has failed too often from this address, or from all together: both
   * counters in one lookup. Counted in memory it answers at once (undefined, or the throw); a
   * promise only while the answer comes from Redis.
   */
  assertNotBlocked(policy: RateLimitPolicy, key: string, address?: string): Pending<void> {
    const seconds = this.limits.blockedFor(policy, [
      [FROM_ADDRESS, fromAddress(key, address)],
      [FROM_ALL, key],
    ]);
    return whenReady(seconds, throwIfBlocked);
  }

  /** Counts one failure; throws 429 when the key is (now) over either allowance. */
  async recordFailure(policy: RateLimitPolicy, key: string, address?: string): Promise<void> {
    const records: ThrottlerStorageRecord[] = await Promise.all([
      this.limits.hit(policy, FROM_ADDRESS, fromAddress(key, address)),
      this.limits.hit(policy, FROM_ALL, key, ALL_ADDRESSES_FACTOR),
    ]);
    const blocked = records.filter((r) => r.isBlocked);
    if (blocked.length > 0) {
      throw rateLimited(Math.max(...blocked.map((r) => r.timeToBlockExpire)));
    }
  }
}

function throwIfBlocked(seconds: number): void {
  if (seconds > 0) throw rateLimited(seconds);
}

const fromAddress = (key: string, address: string | undefined): string =>
  `${key}\n${addressGroup(address)}`;
