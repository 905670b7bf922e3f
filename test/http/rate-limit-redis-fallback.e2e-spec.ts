import type { ChildProcess } from 'node:child_process';
import Redis from 'ioredis';
import { register } from 'prom-client';
import { FALLBACK_ACTIVE, FALLBACK_TOTAL } from '../../src/common/throttling/rate-limit.metrics';
import { capturedLogs } from '../support/captured-logs';
import { processorEnv } from '../support/checkout';
import { FakeProcessor } from '../support/fake-processor';
import { freePort } from '../support/ports';
import { redisServerAvailable, startRedis, stopRedis } from '../support/redis-server';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Redis stops under load and comes back: the checkout limit (10 a minute) holds throughout,
 * counted in this instance's memory while Redis is away and in Redis again once it answers.
 * Each phase counts a client address of its own (X-Forwarded-For behind a trusted loopback proxy).
 */
const LIMIT = 10;
const describeWithRedis = redisServerAvailable() ? describe : describe.skip;

async function metric(name: string): Promise<number> {
  const m = register.getSingleMetric(name);
  return m ? ((await m.get()).values[0]?.value ?? 0) : 0;
}

async function until(what: string, ok: () => Promise<boolean>): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting until ${what}`);
}

describeWithRedis('rate limits when Redis is unreachable', () => {
  let port: number;
  let server: ChildProcess;
  let fake: FakeProcessor;
  let t: TestApp;
  let logs: string[];
  const checkout = (client: string) =>
    t.http().post('/api/lease/checkout').set('X-Forwarded-For', client).send({});
  const burst = async (client: string, n: number) =>
    (await Promise.all(Array.from({ length: n }, () => checkout(client)))).map((r) => r.status);
  const count = (statuses: number[], status: number) => statuses.filter((s) => s === status).length;
  const redisKeys = async () => {
    const client = new Redis(port, '127.0.0.1', { lazyConnect: true });
    await client.connect();
    try {
      return await client.keys(`*${t.config.redisKeyPrefix}rl:*`);
    } finally {
      client.disconnect();
    }
  };

  beforeAll(async () => {
    port = await freePort();
    server = await startRedis(port);
    fake = await new FakeProcessor().start();
    const captured = capturedLogs(
      processorEnv(fake.url, {
        REDIS_URL: `redis://127.0.0.1:${port}`,
        RATE_LIMIT_CHECKOUT_PER_MINUTE: String(LIMIT),
        TRUST_PROXY: 'loopback',
      }),
    );
    logs = captured.lines;
    t = await createTestApp(captured.options);
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
    await stopRedis(server);
  });

  it('counts in Redis, in memory while Redis is down, and in Redis again once it is back', async () => {
    // Up: the limit is counted in Redis. One request first, from an address of its own: the
    // first checkout loads the processor's SDK, and on a busy machine that pause outlasted the
    // Redis command timeout, so the burst was counted half in Redis, half in memory.
    expect((await checkout('203.0.113.9')).status).toBe(200);
    await until('the app counts in Redis', async () => (await metric(FALLBACK_ACTIVE)) === 0);
    expect(await burst('203.0.113.1', LIMIT + 2)).toEqual(expect.arrayContaining([200, 429]));
    expect((await redisKeys()).length).toBeGreaterThan(0);
    expect(await metric(FALLBACK_ACTIVE)).toBe(0);
    const fallbackBefore = await metric(FALLBACK_TOTAL);

    // Killed while requests are in flight: every one is answered, none with a fault.
    const inFlight = burst('203.0.113.2', 8);
    await stopRedis(server);
    for (const status of await inFlight) expect([200, 429]).toContain(status);

    // Down: the limit still holds, per instance.
    const down = await burst('203.0.113.3', LIMIT + 5);
    expect(count(down, 200)).toBe(LIMIT);
    expect(count(down, 429)).toBe(5);
    expect(await metric(FALLBACK_ACTIVE)).toBe(1);
    expect((await metric(FALLBACK_TOTAL)) - fallbackBefore).toBeGreaterThanOrEqual(LIMIT + 5);
    const warnings = logs.filter((l) => l.includes('Redis unreachable'));
    expect(warnings).toHaveLength(1); // once per outage, not once per request
    expect(JSON.parse(warnings[0])).toMatchObject({ level: 40 });

    // Back: counting returns to Redis (a new, empty one) without a restart of the app.
    server = await startRedis(port);
    await until('the app counts in Redis again', async () => (await metric(FALLBACK_ACTIVE)) === 0);
    expect(await redisKeys()).toEqual([]);
    const back = await burst('203.0.113.4', LIMIT + 2);
    expect(count(back, 200)).toBe(LIMIT);
    expect(count(back, 429)).toBe(2);
    expect((await redisKeys()).length).toBeGreaterThan(0);
    expect(logs.filter((l) => l.includes('Redis answers again'))).toHaveLength(1);
  });

  it('a burst counted half in Redis, half in memory (Redis stalls mid-window) gets the limit once', async () => {
    const proxy = await new TcpProxy({ host: '127.0.0.1', port }).start();
    const env = processorEnv(fake.url, {
      REDIS_URL: `redis://127.0.0.1:${proxy.port}`,
      RATE_LIMIT_CHECKOUT_PER_MINUTE: String(LIMIT),
      TRUST_PROXY: 'loopback',
    });
    const app = await createTestApp({ env });
    try {
      const post = () =>
        app.http().post('/api/lease/checkout').set('X-Forwarded-For', '203.0.113.20').send({});
      const inRedis = [];
      for (let i = 0; i < 6; i++) inRedis.push((await post()).status);
      expect(inRedis).toEqual(Array(6).fill(200));
      // Redis stops answering: the next commands time out and the rest is counted in memory,
      // which goes on from the count Redis last gave instead of from 0.
      proxy.stall();
      const inMemory = (await Promise.all(Array.from({ length: 8 }, post))).map((r) => r.status);
      expect(count(inMemory, 200)).toBe(LIMIT - 6);
      expect(count(inMemory, 429)).toBe(8 - (LIMIT - 6));
    } finally {
      proxy.flow();
      await app.close();
      await proxy.stop();
    }
  });

  it('boots while Redis is down and limits from the first request', async () => {
    const deadPort = await freePort();
    const env = processorEnv(fake.url, {
      REDIS_URL: `redis://127.0.0.1:${deadPort}`,
      RATE_LIMIT_CHECKOUT_PER_MINUTE: String(LIMIT),
    });
    const app = await createTestApp({ env });
    try {
      const post = () => app.http().post('/api/lease/checkout').send({});
      const statuses = (await Promise.all(Array.from({ length: LIMIT + 3 }, post))).map(
        (r) => r.status,
      );
      expect(count(statuses, 200)).toBe(LIMIT);
      expect(count(statuses, 429)).toBe(3);
    } finally {
      await app.close();
    }
  });
});
