import type { ThrottlerStorage } from '@nestjs/throttler';

/** The record the storage answers with; the package exports the interface only under dist/. */
export type ThrottlerStorageRecord = Awaited<ReturnType<ThrottlerStorage['increment']>>;

interface Window {
  hits: number;
  expiresAt: number;
  blockedUntil: number;
}

const SWEEP_INTERVAL_MS = 60_000;

/**
 * In-memory counters with the same fixed-window rule as the Redis store's script, in O(1) per hit.
 * The throttler's own memory store keeps one timestamp per hit and filters them all on every hit,
 * which grows with the allowance. It is a ThrottlerStorage (the contract's interface); `count` is
 * the same answer without the promise, so a request counted in memory waits on none for its limits.
 */
export class FixedWindowStorage implements ThrottlerStorage {
  private readonly windows = new Map<string, Window>();
  private readonly sweeper: NodeJS.Timeout;

  /** `now`: milliseconds since the epoch, from the Clock. */
  constructor(private readonly now: () => number) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  increment(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): Promise<ThrottlerStorageRecord> {
    return Promise.resolve(this.count(key, ttl, limit, blockDuration, throttlerName));
  }

  /** ThrottlerStorage's `increment`, answered at once. */
  count(
    key: string,
    ttl: number,
    limit: number,
    blockDuration: number,
    throttlerName: string,
  ): ThrottlerStorageRecord {
    const now = this.now();
    const id = `${key}:${throttlerName}`;
    let w = this.windows.get(id);
    if (!w) {
      w = { hits: 0, expiresAt: now + ttl, blockedUntil: 0 };
      this.windows.set(id, w);
    }
    // The count and the block expire separately, as the script's two keys do.
    if (w.expiresAt <= now) {
      w.hits = 0;
      w.expiresAt = now + ttl;
    }
    w.hits += 1;
    if (w.blockedUntil <= now && w.hits > limit) w.blockedUntil = now + blockDuration;
    const isBlocked = w.blockedUntil > now;
    return {
      totalHits: w.hits,
      timeToExpire: Math.ceil((w.expiresAt - now) / 1000),
      isBlocked,
      timeToBlockExpire: isBlocked ? Math.ceil((w.blockedUntil - now) / 1000) : 0,
    };
  }

  /**
   * Takes a count Redis answered as this counter's (RedisFallbackStorage): counting here after a
   * fallback goes on from it instead of from 0, so a window split between the two stores allows
   * its limit once, not twice. A lower count in the same window (a late answer) never lowers it.
   * Each counter Redis counts so stays here until its window ends (the sweep).
   */
  mirror(key: string, throttlerName: string, record: ThrottlerStorageRecord): void {
    const now = this.now();
    const expiresAt = now + record.timeToExpire * 1000;
    const blockedUntil = record.isBlocked ? now + record.timeToBlockExpire * 1000 : 0;
    const id = `${key}:${throttlerName}`;
    const w = this.windows.get(id);
    // Redis's window ending later than ours (its seconds are rounded up: 1 s of slack) is a new one.
    if (!w || w.expiresAt <= now || expiresAt > w.expiresAt + 1000) {
      this.windows.set(id, { hits: record.totalHits, expiresAt, blockedUntil });
      return;
    }
    w.hits = Math.max(w.hits, record.totalHits);
    w.blockedUntil = Math.max(w.blockedUntil, blockedUntil);
  }

  /**
   * The longest any of the counters stays blocked, in milliseconds (0: none is), without
   * counting a hit; the same question RedisFallbackStorage answers, here at once.
   */
  longestBlock(counters: readonly (readonly [key: string, throttlerName: string])[]): number {
    const now = this.now();
    let longest = 0;
    for (const [key, throttlerName] of counters) {
      const w = this.windows.get(`${key}:${throttlerName}`);
      if (w) longest = Math.max(longest, w.blockedUntil - now);
    }
    return longest;
  }

  private sweep(): void {
    const now = this.now();
    for (const [id, w] of this.windows) {
      if (w.expiresAt <= now && w.blockedUntil <= now) this.windows.delete(id);
    }
  }

  close(): void {
    clearInterval(this.sweeper);
  }
}
