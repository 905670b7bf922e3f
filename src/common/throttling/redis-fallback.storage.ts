import type { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { FixedWindowStorage, ThrottlerStorageRecord } from './fixed-window.storage';
import type { FallbackMetrics } from './rate-limit.metrics';

/**
 * Counters in Redis, so N instances share one allowance; while Redis cannot answer, in this
 * instance's memory (the limit then holds per instance instead of not at all). A failed command
 * switches to memory at once and drops the connection, so the client's own reconnect tells when
 * Redis answers again ('ready', after its ready check): then counting goes back to Redis.
 * With no offline queue, a command while disconnected fails at once instead of waiting.
 */
export class RedisFallbackStorage {
  private inMemory = false;

  constructor(
    private readonly redis: Redis,
    private readonly store: ThrottlerStorage,
    private readonly memory: FixedWindowStorage,
    private readonly logger: Logger,
    private readonly metrics: FallbackMetrics,
  ) {
    redis.on('ready', () => this.recovered());
    // Reconnect attempts fail with an event each; the switch above already said it once.
    redis.on('error', (err: Error) => this.logger.debug(`Redis: ${err.message}`));
    metrics.active.set(0);
  }

  async increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    if (this.redis.status === 'ready') {
      try {
        return await this.store.increment(key, ttl, limit, blockDuration, throttlerName);
      } catch (err) {
        this.failed(err);
      }
    } else {
      this.failed(new Error(`connection ${this.redis.status}`));
    }
    this.metrics.hits.inc();
    return this.memory.increment(key, ttl, limit, blockDuration, throttlerName);
  }

  /** Milliseconds the key stays blocked, without counting a hit. */
  async blockedFor(key: string, throttlerName: string): Promise<number> {
    if (this.redis.status === 'ready') {
      try {
        // The Redis store's own block key: `{key:throttlerName}:blocked` (throttler-storage-redis).
        return await this.redis.pttl(`{${key}:${throttlerName}}:blocked`);
      } catch (err) {
        this.failed(err);
      }
    }
    return this.memory.blockedFor(key, throttlerName);
  }

  /**
   * Resolves once the first connection is up, or has failed, or after `ms`: the first requests
   * after boot are counted in Redis when it is there, without waiting long when it is not.
   */
  connected(ms: number): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.redis.off('ready', done).off('error', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.redis.once('ready', done).once('error', done);
    });
  }

  private failed(err: unknown): void {
    // A command that timed out on an open connection: reconnect, so that 'ready' means Redis
    // answered again rather than that an old socket is still open.
    if (this.redis.status === 'ready') this.redis.disconnect(true);
    if (this.inMemory) return;
    this.inMemory = true;
    this.metrics.active.set(1);
    // Once per outage, not per request.
    this.logger.warn(
      `Redis unreachable (${(err as Error).message}): rate limits counted per instance until it answers`,
    );
  }

  private recovered(): void {
    if (!this.inMemory) return;
    this.inMemory = false;
    this.metrics.active.set(0);
    this.logger.log('Redis answers again: rate limits counted in Redis');
  }

  close(): void {
    this.redis.disconnect();
    this.memory.close();
  }
}
