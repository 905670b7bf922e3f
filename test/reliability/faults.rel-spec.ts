import { processorEnv, newEmail, subscriptionsByEmail, subscriptionsOf } from '../support/checkout';
import { FakeMode, FakeProcessor } from '../support/fake-processor';
import { freePort } from '../support/ports';
import { startRedis, stopRedis } from '../support/redis-server';
import { createDevice, createOrg } from '../support/factories';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestApp, TestApp, testDatabaseUrl } from '../support/test-app';
import { recordFigure } from './support/figures';
import { HIGH_LIMITS, percentile, sleep, steadyLoad } from './support/rel';

describe('faults: the processor misbehaves', () => {
  let fake: FakeProcessor;
  let t: TestApp;
  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    t = await createTestApp({
      env: processorEnv(fake.url, {
        STRIPE_TIMEOUT_MS: '1000',
        STRIPE_MAX_NETWORK_RETRIES: '1',
        ...HIGH_LIMITS,
      }),
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  it.each<FakeMode>(['error500', 'error429', 'reset', 'hang'])(
    'answers 502 and keeps the intent when it answers %s',
    async (mode) => {
      fake.reset(mode);
      const email = newEmail();
      const started = Date.now();
      const res = await t.http().post('/api/lease/checkout').send({ email });
      const ms = Date.now() - started;
      const records = await subscriptionsByEmail(t, email);
      recordFigure(
        'Faults',
        `processor ${mode}: answer / intents kept / time to answer`,
        `${res.status} ${res.body.code} / ${records.length} / ${ms} ms`,
        '502 / 1 / bounded: 2 attempts x STRIPE_TIMEOUT_MS (1 s here) + backoff',
      );
      expect(res.status).toBe(502);
      expect(res.body.code).toBe('processor_unavailable');
      expect(records).toHaveLength(1);
      expect(records[0]).toMatchObject({ status: 'pending', checkoutSessionId: null });
      expect(records[0].lastProcessorError).toBeTruthy();
    },
  );
});

interface Outcome {
  kind: 'checkout' | 'device';
  phase: 'up' | 'down' | 'after';
  status: number;
  ms: number;
  subscriptionId?: string;
}

describe('faults: PostgreSQL cut away and brought back under load', () => {
  it('answers 503 quickly while it is away, recovers without a restart, and loses no intent', async () => {
    const proxy = await TcpProxy.toDatabase(testDatabaseUrl()).start();
    const fake = await new FakeProcessor().start();
    const t = await createTestApp({
      env: {
        ...processorEnv(fake.url),
        ...HIGH_LIMITS,
        DATABASE_URL: TcpProxy.via(testDatabaseUrl(), proxy),
      },
    });
    try {
      const device = await createDevice(t.app, (await createOrg(t.app)).id);
      const outcomes: Outcome[] = [];
      let phase: Outcome['phase'] = 'up';
      let recoveredAt = 0;
      let restoredAt = 0;
      const task = async (i: number) => {
        const kind = i % 2 === 0 ? 'checkout' : 'device';
        const at = phase;
        const started = Date.now();
        const res =
          kind === 'checkout'
            ? await t
                .http()
                .post('/api/lease/checkout')
                .send({ email: newEmail(), source: 'reliability' })
            : await t.http().post('/auth/device').send({
                device_id: device.deviceId,
                model: device.model,
                provider: device.provider,
              });
        const ms = Date.now() - started;
        outcomes.push({
          kind,
          phase: at,
          status: res.status,
          ms,
          subscriptionId: res.body?.subscription_id,
        });
        if (at === 'after' && res.status < 300 && !recoveredAt) recoveredAt = Date.now();
      };
      const load = steadyLoad(
        20,
        60_000,
        task,
        () => phase === 'after' && recoveredAt > 0 && Date.now() - recoveredAt > 5000,
      );
      await sleep(4000);
      phase = 'down';
      proxy.cut();
      await sleep(8000);
      phase = 'after';
      proxy.restore();
      restoredAt = Date.now();
      const sent = await load;

      const down = outcomes.filter((o) => o.phase === 'down');
      const downOk = down.filter((o) => o.status < 300).length;
      const down503 = down.filter((o) => o.status === 503);
      const other5xx = outcomes.filter((o) => o.status >= 500 && o.status !== 503);
      const accepted = outcomes.filter((o) => o.kind === 'checkout' && o.status === 200);
      const ids = accepted.map((o) => o.subscriptionId!);
      const stored = await subscriptionsOf(t)
        .repo.createQueryBuilder('s')
        .where('s.id IN (:...ids)', { ids })
        .getCount();
      const lost = ids.length - stored;
      const p95 = percentile(
        down503.map((o) => o.ms),
        95,
      );
      const afterUp = outcomes.filter(
        (o) => o.phase === 'after' && recoveredAt && o.status < 300,
      ).length;
      recordFigure(
        'Faults',
        'PostgreSQL cut: requests sent (20/s, checkout + device token)',
        sent,
        'steady',
      );
      recordFigure(
        'Faults',
        'while cut: 503 / 2xx / other',
        `${down503.length} / ${downOk} / ${down.length - down503.length - downOk}`,
        'all 503 (2xx only for requests already past the database)',
      );
      recordFigure(
        'Faults',
        'while cut: 503 latency p50 / p95 / max',
        `${percentile(
          down503.map((o) => o.ms),
          50,
        )} / ${p95} / ${Math.max(0, ...down503.map((o) => o.ms))} ms`,
        'p95 under the 2 s connect timeout + 1 s',
      );
      recordFigure(
        'Faults',
        'recovery after restore (no restart): first 2xx after',
        `${recoveredAt ? recoveredAt - restoredAt : 'never'} ms`,
        'recovers',
      );
      recordFigure(
        'Faults',
        'checkouts answered 2xx / found in the database / lost',
        `${ids.length} / ${stored} / ${lost}`,
        '0 lost',
      );
      recordFigure('Faults', '5xx other than 503 during the cut', other5xx.length, '0');
      expect(down503.length).toBeGreaterThan(50);
      expect(down.length - down503.length - downOk).toBe(0);
      expect(downOk).toBeLessThanOrEqual(10);
      expect(p95).toBeLessThan(3000);
      expect(recoveredAt).toBeGreaterThan(0);
      expect(afterUp).toBeGreaterThan(10);
      expect(lost).toBe(0);
      expect(other5xx).toEqual([]);
      // And the health check says so again.
      await t.http().get('/health').expect(200);
    } finally {
      await t.close();
      await fake.stop();
      await proxy.stop();
    }
  });
});

describe('faults: Redis stops under the rate limit', () => {
  it('counts in memory from Redis\'s last count while Redis is away, and in Redis again once it is back', async () => {
    const port = await freePort();
    let redis = await startRedis(port);
    const fake = await new FakeProcessor().start();
    const t = await createTestApp({
      env: {
        ...processorEnv(fake.url),
        RATE_LIMIT_CHECKOUT_PER_MINUTE: '3',
        REDIS_URL: `redis://127.0.0.1:${port}`,
      },
    });
    const checkout = () => t.http().post('/api/lease/checkout').send({});
    try {
      const before = [];
      for (let i = 0; i < 4; i++) before.push((await checkout()).status);
      expect(before).toEqual([200, 200, 200, 429]); // the limit is counted in this Redis
      await stopRedis(redis);
      const during: number[] = [];
      const ms: number[] = [];
      for (let i = 0; i < 10; i++) {
        const s = Date.now();
        during.push((await checkout()).status);
        ms.push(Date.now() - s);
      }
      redis = await startRedis(port);
      // Counts in memory (the address is blocked there) until the client is connected again.
      const backAfter = Date.now();
      let limitedAgainAfter = -1;
      let redisAgainMs = -1;
      for (let i = 0; i < 40 && redisAgainMs < 0; i++) {
        if ((await checkout()).status === 200) redisAgainMs = Date.now() - backAfter;
        else await sleep(250);
      }
      for (let i = 0; i < 10 && limitedAgainAfter < 0; i++) {
        if ((await checkout()).status === 429) limitedAgainAfter = i + 2;
      }
      recordFigure(
        'Faults',
        'rate limit with Redis up: answers to 4 checkouts (limit 3)',
        before.join(','),
        '200,200,200,429',
      );
      recordFigure(
        'Faults',
        'Redis stopped in the same window: checkouts let through (limit 3, spent in Redis) / max latency',
        `${during.filter((s) => s === 200).length}/10 / ${Math.max(...ms)} ms`,
        '0/10 / under the 500 ms command timeout + processor time',
      );
      recordFigure(
        'Faults',
        'Redis back: counted in (the new, empty) Redis after / limited again after N requests',
        `${redisAgainMs} ms / ${limitedAgainAfter}`,
        'within the reconnect delay (2 s at most) / 4 (no restart)',
      );
      // Memory goes on from the count Redis last gave: the window's 3 were spent there, so a
      // stop mid-window lets none more through (not the limit a second time).
      expect(during).toEqual(Array(10).fill(429));
      expect(limitedAgainAfter).toBe(4);
    } finally {
      await t.close();
      await fake.stop();
      await stopRedis(redis);
    }
  });
});
