import { createHash } from 'node:crypto';
import { Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig, RateLimitConfig } from '../../config/app-config';
import { Clock } from '../clock/clock';
import { DomainError } from '../errors/domain.error';
import { ErrorCode } from '../errors/error-code.enum';
import { FixedWindowStorage, ThrottlerStorageRecord } from './fixed-window.storage';
import { fallbackMetrics } from './rate-limit.metrics';
import { RedisFallbackStorage } from './redis-fallback.storage';

/** A policy names a per-minute allowance in the configuration. */
export type RateLimitPolicy = keyof RateLimitConfig;

/** Every allowance is per minute: one fixed window for every counter. */
const WINDOW_MS = 60_000;

/**
 * A value now (counted in memory) or later (in Redis). Awaiting a value that is already there
 * still costs a promise and a turn of the microtask queue, on every request of a limited route.
 */
export type Pending<T> = T | Promise<T>;

/** `next` of the value: at once when it is there, else when it comes. */
export function whenReady<T, U>(value: Pending<T>, next: (value: T) => U): Pending<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}

const toSeconds = (ms: number): number => (ms > 0 ? Math.ceil(ms / 1000) : 0);

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
 * With Redis, the tracker is hashed so a raw address or device id never lands in Redis keys (the
 * memory fallback uses the same keys). Counted in memory only, the key never leaves the process:
 * the tracker goes in as a JSON string, which ends where its closing quote is, so no two trackers
 * make one key (the hash's fixed length did that). The hash was three SHA-256 per device token.
 */
const hashedTracker = (tracker: string): string =>
  createHash('sha256').update(tracker).digest('base64url');
const quotedTracker = (tracker: string): string => JSON.stringify(tracker);

/** How long a counter may take before this instance counts in memory instead. */
const REDIS_COMMAND_TIMEOUT_MS = 500;
/** Also how long boot waits for a first connection before counting in memory. */
const REDIS_CONNECT_TIMEOUT_MS = 1000;
/**
 * How long disconnect() waits for the socket to close. ioredis arms this timer even for a socket
 * already gone (Redis down), and it holds the process open at exit.
 */
const REDIS_DISCONNECT_TIMEOUT_MS = 200;

/**
 * Counters for rate limits: in Redis when REDIS_URL is set, so N instances share one allowance,
 * in memory otherwise. While Redis is unreachable each instance counts in its own memory
 * (RedisFallbackStorage): a limit that holds per instance beats none, and a request never waits
 * on a dead Redis longer than the command timeout.
 */
@Injectable()
export class RateLimitService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly storage: FixedWindowStorage | RedisFallbackStorage;
  /** A hit on a counter: at once in memory (`count`), a promise from Redis (`increment`). */
  private readonly count: (
    ...args: Parameters<FixedWindowStorage['count']>
  ) => Pending<ThrottlerStorageRecord>;
  private readonly prefix: string;
  /** How a tracker appears in a counter's key: hashed where the key goes to Redis. */
  private readonly trackerKey: (tracker: string) => string;
  private readonly allowances: RateLimitConfig;

  constructor(config: AppConfig, clock: Clock) {
    this.allowances = config.rateLimits;
    this.prefix = config.redisKeyPrefix;
    const memory = new FixedWindowStorage(() => clock.now().getTime());
    const redis = config.redisUrl ? this.redisStorage(config.redisUrl, memory, clock) : undefined;
    this.storage = redis ?? memory;
    this.count = redis ? (...args) => redis.increment(...args) : (...args) => memory.count(...args);
    this.trackerKey = config.redisUrl ? hashedTracker : quotedTracker;
  }

  /** The policy's allowance per minute. */
  limitOf(policy: RateLimitPolicy): number {
    return this.allowances[policy];
  }

  /**
   * Counts one hit on the policy's `counter` (what it counts by) for this tracker; `factor`
   * multiplies the allowance (a ceiling over many addresses). Counted in memory, the record comes
   * at once; in Redis, as a promise: a caller awaits only what is pending (`Pending`).
   */
  hit(
    policy: RateLimitPolicy,
    counter: string,
    tracker: string,
    factor = 1,
  ): Pending<ThrottlerStorageRecord> {
    const name = `${policy}:${counter}`;
    const limit = this.limitOf(policy) * factor;
    return this.count(this.keyOf(name, tracker), WINDOW_MS, limit, WINDOW_MS, name);
  }

  /**
   * Seconds the longest-blocked of these (counter, tracker) pairs stays blocked, without counting
   * a hit; 0 if none is. One round trip to Redis for them all, none in memory.
   */
  blockedFor(
    policy: RateLimitPolicy,
    counters: readonly (readonly [counter: string, tracker: string])[],
  ): Pending<number> {
    const keys = counters.map(([counter, tracker]) => {
      const name = `${policy}:${counter}`;
      return [this.keyOf(name, tracker), name] as const;
    });
    return whenReady(this.storage.longestBlock(keys), toSeconds);
  }

  private redisStorage(
    url: string,
    memory: FixedWindowStorage,
    clock: Clock,
  ): RedisFallbackStorage {
    // Required here, not imported: without Redis, ioredis and its store would only cost boot
    // time and memory.
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { default: RedisClient } = require('ioredis') as typeof import('ioredis');
    const { ThrottlerStorageRedisService } =
      require('@nest-lab/throttler-storage-redis') as typeof import('@nest-lab/throttler-storage-redis');
    /* eslint-enable @typescript-eslint/no-require-imports */
    const redis = new RedisClient(url, {
      // Never queue or retry a counter: an answer within the timeout, or count in memory.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
      connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
      disconnectTimeout: REDIS_DISCONNECT_TIMEOUT_MS,
    });
    const store = new ThrottlerStorageRedisService(redis);
    return new RedisFallbackStorage(
      redis,
      store,
      memory,
      new Logger('RateLimit'),
      fallbackMetrics(),
      () => clock.now().getTime(),
    );
  }

  private keyOf(policy: string, tracker: string): string {
    return `${this.prefix}rl:${policy}:${this.trackerKey(tracker)}`;
  }

  async onApplicationBootstrap(): Promise<void> {
    if (this.storage instanceof RedisFallbackStorage) {
      await this.storage.connected(REDIS_CONNECT_TIMEOUT_MS);
    }
  }

  onApplicationShutdown(): void {
    this.storage.close();
  }
}
