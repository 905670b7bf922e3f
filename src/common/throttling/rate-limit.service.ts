import { createHash } from 'node:crypto';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { AppConfig } from '../../config/app-config';
import { Clock } from '../clock/clock';
import { FixedWindowStorage, ThrottlerStorageRecord } from './fixed-window.storage';

/**
 * Counters for rate limits: in Redis when REDIS_URL is set, so N instances share one allowance,
 * in memory otherwise. A Redis outage fails open (the request passes, a warning is logged):
 * a rate limit protects the service, it must not take checkout down with it.
 */
@Injectable()
export class RateLimitService implements OnApplicationShutdown {
  private readonly logger = new Logger('RateLimit');
  private readonly storage: ThrottlerStorage;
  private readonly redis?: Redis;
  private readonly prefix: string;
  private lastWarning = 0;

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.prefix = config.redisKeyPrefix;
    if (config.redisUrl) {
      // Required here, not imported: without Redis, ioredis and its store would only cost boot
      // time and memory.
      /* eslint-disable @typescript-eslint/no-require-imports */
      const { default: RedisClient } = require('ioredis') as typeof import('ioredis');
      const { ThrottlerStorageRedisService } =
        require('@nest-lab/throttler-storage-redis') as typeof import('@nest-lab/throttler-storage-redis');
      /* eslint-enable @typescript-eslint/no-require-imports */
      this.redis = new RedisClient(config.redisUrl, {
        // Never queue or retry a counter: an answer within half a second, or fail open.
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: 500,
        connectTimeout: 2000,
      });
      this.redis.on('error', (err: Error) => this.warn(`Redis: ${err.message}`));
      this.storage = new ThrottlerStorageRedisService(this.redis);
    } else {
      this.storage = new FixedWindowStorage(() => clock.now().getTime());
    }
  }

  /** Counts one hit; undefined when the counter store could not answer. */
  async hit(
    policy: string,
    tracker: string,
    limit: number,
    ttlMs: number,
  ): Promise<ThrottlerStorageRecord | undefined> {
    try {
      return await this.storage.increment(this.keyOf(policy, tracker), ttlMs, limit, ttlMs, policy);
    } catch (err) {
      this.warn(`rate limit store unavailable, allowing request: ${(err as Error).message}`);
      return undefined;
    }
  }

  /**
   * Seconds the tracker stays blocked under the policy, without counting a hit; 0 when it is not
   * blocked, or when the store could not answer (fail open, as hit() does).
   */
  async blockedFor(policy: string, tracker: string): Promise<number> {
    const key = this.keyOf(policy, tracker);
    try {
      const ms = this.redis
        ? // The Redis store's own block key: `{key:throttlerName}:blocked` (throttler-storage-redis).
          await this.redis.pttl(`{${key}:${policy}}:blocked`)
        : await (this.storage as FixedWindowStorage).blockedFor(key, policy);
      return ms > 0 ? Math.ceil(ms / 1000) : 0;
    } catch (err) {
      this.warn(`rate limit store unavailable, allowing request: ${(err as Error).message}`);
      return 0;
    }
  }

  // Hash the tracker so a raw address or device id never lands in Redis keys.
  private keyOf(policy: string, tracker: string): string {
    return `${this.prefix}rl:${policy}:${createHash('sha256').update(tracker).digest('base64url')}`;
  }

  private warn(message: string): void {
    const now = this.clock.now().getTime();
    if (now - this.lastWarning < 10_000) return; // one line per 10 s, not one per request
    this.lastWarning = now;
    this.logger.warn(message);
  }

  onApplicationShutdown(): void {
    this.redis?.disconnect();
    if (this.storage instanceof FixedWindowStorage) this.storage.close();
  }
}
