import type { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { ThrottlerStorage } from '@nestjs/throttler';
import { FixedWindowStorage, ThrottlerStorageRecord } from './fixed-window.storage';
import type { FallbackMetrics } from './rate-limit.metrics';

/** While counting in memory on an open connection, one request tries Redis again this often. */
const RETRY_AFTER_MS = 5000;

type Attempt<T> = { ok: true; value: T } | { ok: false };

/** The Redis store's own block key (throttler-storage-redis): `{key:throttlerName}:blocked`. */
const blockKey = (key: string, throttlerName: string) => `{${key}:${throttlerName}}:blocked`;

/**
 * Counters in Redis, so N instances share one allowance; while Redis cannot answer, in this
 * instance's memory (the limit then holds per instance instead of not at all). A command that
 * times out or finds no connection switches to memory at once; a timed-out connection is dropped,
 * so the client's own reconnect ('ready', after its ready check) tells when Redis answers again.
 * Redis refusing on an open connection (an error reply) is tried again every RETRY_AFTER_MS.
 * Memory keeps the last count Redis gave for each counter, so one window split between the two
 * (a command that times out mid-burst) allows its limit once, not once in each.
 * With no offline queue, a command while disconnected fails at once instead of waiting.
 */
export class RedisFallbackStorage implements ThrottlerStorage {
  private inMemory = false;
  private retryAt = 0;

  constructor(
    private readonly redis: Redis,
    private readonly store: ThrottlerStorage,
    private readonly memory: FixedWindowStorage,
    private readonly logger: Logger,
    private readonly metrics: FallbackMetrics,
    /** Milliseconds since the epoch, from the Clock. */
    private readonly now: () => number,
  ) {
    redis.on('ready', () => this.recovered());
    // Reconnect attempts fail with an event each; the switch to memory already said it once.
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
    const counted = await this.attempt(() =>
      this.store.increment(key, ttl, limit, blockDuration, throttlerName),
    );
    if (counted.ok) {
      this.memory.mirror(key, throttlerName, counted.value);
      return counted.value;
    }
    this.metrics.hits.inc();
    return this.memory.count(key, ttl, limit, blockDuration, throttlerName);
  }

  /**
   * The longest any of the counters stays blocked, in milliseconds (0: none is), without
   * counting a hit: one round trip for them all (a pipeline, each command under the timeout).
   */
  async longestBlock(counters: readonly (readonly [key: string, name: string])[]): Promise<number> {
    const answered = await this.attempt(async () => {
      const pipeline = this.redis.pipeline();
      for (const [key, name] of counters) pipeline.pttl(blockKey(key, name));
      const replies = (await pipeline.exec()) ?? [];
      return replies.map(([err, ms]) => {
        if (err) throw err;
        return ms as number;
      });
    });
    return answered.ok ? Math.max(0, ...answered.value) : this.memory.longestBlock(counters);
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

  private async attempt<T>(command: () => Promise<T>): Promise<Attempt<T>> {
    if (this.redis.status !== 'ready') {
      this.failed(new Error(`connection ${this.redis.status}`));
      return { ok: false };
    }
    if (this.inMemory && this.now() < this.retryAt) return { ok: false };
    try {
      const value = await command();
      this.recovered();
      return { ok: true, value };
    } catch (err) {
      this.failed(err as Error);
      return { ok: false };
    }
  }

  private failed(err: Error): void {
    this.retryAt = this.now() + RETRY_AFTER_MS;
    // A timed-out connection is dropped, so that 'ready' means Redis answered again rather than
    // that an old socket is still open. An error reply is Redis answering: nothing to reconnect.
    if (err.name !== 'ReplyError' && this.redis.status === 'ready') this.redis.disconnect(true);
    if (this.inMemory) return;
    this.inMemory = true;
    this.metrics.active.set(1);
    // Once per outage, not per request.
    this.logger.warn(
      `Redis unreachable (${err.message}): rate limits counted per instance until it answers`,
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
