import { EventEmitter } from 'node:events';
import type { Logger } from '@nestjs/common';
import type { ThrottlerStorage } from '@nestjs/throttler';
import type Redis from 'ioredis';
import { Counter, Gauge, Registry } from 'prom-client';
import { FixedWindowStorage } from './fixed-window.storage';
import { RedisFallbackStorage } from './redis-fallback.storage';

/** The client's side that matters here: its status, its events, and a reconnect. */
class FakeRedis extends EventEmitter {
  status = 'ready';
  reconnects = 0;
  disconnect(reconnect?: boolean): void {
    this.status = 'reconnecting';
    if (reconnect) this.reconnects++;
  }
  /** Each PTTL answers -2 (no such key), as Redis does for a counter that was never blocked. */
  pipeline() {
    const replies: [null, number][] = [];
    const pipeline = {
      pttl: () => (replies.push([null, -2]), pipeline),
      exec: () => Promise.resolve(replies),
    };
    return pipeline;
  }
  comeBack(): void {
    this.status = 'ready';
    this.emit('ready');
  }
}

describe('RedisFallbackStorage', () => {
  let redis: FakeRedis;
  let failure: Error | undefined;
  let now: number;
  let warnings: string[];
  let storage: RedisFallbackStorage;
  let memory: FixedWindowStorage;
  const registry = new Registry();
  const hits = new Counter({ name: 'hits', help: 'h', registers: [registry] });
  const active = new Gauge({ name: 'active', help: 'a', registers: [registry] });
  const redisRecord = { totalHits: 1, timeToExpire: 60, isBlocked: false, timeToBlockExpire: 0 };

  beforeEach(() => {
    redis = new FakeRedis();
    failure = undefined;
    now = 1_000_000;
    warnings = [];
    hits.reset();
    const store: ThrottlerStorage = {
      increment: () => (failure ? Promise.reject(failure) : Promise.resolve(redisRecord)),
    };
    const logger = { warn: (m: string) => warnings.push(m), log: () => {}, debug: () => {} };
    memory = new FixedWindowStorage(() => 0);
    storage = new RedisFallbackStorage(
      redis as unknown as Redis,
      store,
      memory,
      logger as unknown as Logger,
      { hits, active },
      () => now,
    );
  });
  afterEach(() => memory.close());

  const hit = () => storage.increment('k', 60_000, 2, 60_000, 'p');
  const value = async (m: Counter | Gauge) => (await m.get()).values[0]?.value;

  it('counts in memory after a timeout, reconnects, warns once, and returns on ready', async () => {
    expect(await hit()).toBe(redisRecord);
    failure = new Error('Command timed out');
    // Memory goes on from Redis's last count (1), not from 0: the window's limit holds once.
    expect(await hit()).toMatchObject({ totalHits: 2, isBlocked: false });
    // The timed-out connection was dropped; while it reconnects no command is tried.
    expect(redis.reconnects).toBe(1);
    expect(await hit()).toMatchObject({ totalHits: 3, isBlocked: true });
    expect(await hit()).toMatchObject({ totalHits: 4, isBlocked: true });
    expect(warnings).toHaveLength(1);
    expect(await value(hits)).toBe(3);
    expect(await value(active)).toBe(1);
    failure = undefined;
    now = 1_000_000;
    redis.comeBack();
    expect(await hit()).toBe(redisRecord);
    expect(await value(active)).toBe(0);
    expect(await value(hits)).toBe(3);
  });

  it('answers blocks from memory while Redis is away', async () => {
    redis.status = 'connecting';
    for (let i = 0; i < 3; i++) await hit();
    const counters = [
      ['k', 'p'],
      ['other', 'p'],
    ] as const;
    expect(await storage.longestBlock(counters)).toBe(60_000);
    redis.comeBack();
    expect(await storage.longestBlock(counters)).toBe(0);
  });

  it('on an error reply keeps the connection and tries Redis again after 5 s', async () => {
    failure = Object.assign(new Error('OOM command not allowed'), { name: 'ReplyError' });
    expect(await hit()).toMatchObject({ totalHits: 1 });
    expect(redis.reconnects).toBe(0);
    failure = undefined;
    now += 4_000;
    expect(await hit()).toMatchObject({ totalHits: 2 }); // still in memory
    now += 1_000;
    expect(await hit()).toBe(redisRecord);
    expect(await value(active)).toBe(0);
    expect(warnings).toHaveLength(1);
  });
});
