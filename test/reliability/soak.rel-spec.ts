import { signIn } from '../support/auth';
import { newEmail, processorEnv } from '../support/checkout';
import { deviceToken } from '../support/devices';
import { createDevice, createPendingSubscription } from '../support/factories';
import { FakeProcessor } from '../support/fake-processor';
import { checkoutCompletedEvent, sign } from '../support/processor-events';
import { createTestApp, TestApp } from '../support/test-app';
import { deliver, WEBHOOK_ENV } from '../support/webhook';
import { recordFigure } from './support/figures';
import { HIGH_LIMITS, percentile, sleep, steadyLoad } from './support/rel';

/** Five minutes in CI; a developer sets RELIABILITY_SOAK_SECONDS=30 for a quick look. */
const SOAK_SECONDS = Number(process.env.RELIABILITY_SOAK_SECONDS ?? 300);
const RATE = Number(process.env.RELIABILITY_SOAK_RPS ?? 20);

const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
function memory(): { heap: number; rss: number } {
  (globalThis as { gc?: () => void }).gc?.(); // run with --expose-gc (npm run test:reliability does)
  const m = process.memoryUsage();
  return { heap: m.heapUsed, rss: m.rss };
}

describe(`soak: ${SOAK_SECONDS} s of mixed load at ${RATE} requests a second`, () => {
  let fake: FakeProcessor;
  let t: TestApp;
  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    t = await createTestApp({ env: { ...processorEnv(fake.url), ...WEBHOOK_ENV, ...HIGH_LIMITS } });
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  it('answers without an unexpected 5xx and reports memory growth', async () => {
    const admin = await signIn(t, { role: 'admin' });
    const device = await createDevice(t.app, admin.user.orgId);
    let bearer = await deviceToken(t, device);
    const kinds = [
      'health',
      'config',
      'checkout',
      'deviceAuth',
      'self',
      'heartbeat',
      'me',
      'devices',
      'webhook',
    ] as const;
    const counts = new Map<string, number>();
    const unexpected: string[] = [];
    const latencies: number[] = [];
    const task = async (i: number) => {
      const kind = kinds[i % kinds.length];
      const http = t.http();
      const started = Date.now();
      let res;
      switch (kind) {
        case 'health':
          res = await http.get('/health');
          break;
        case 'config':
          res = await http.get('/api/lease/checkout-config');
          break;
        case 'checkout':
          res = await http
            .post('/api/lease/checkout')
            .send({ email: newEmail(), coupon: i % 2 ? 'BETA' : undefined });
          break;
        case 'deviceAuth':
          res = await http
            .post('/auth/device')
            .send({ device_id: device.deviceId, model: device.model, provider: device.provider });
          if (res.status === 200) bearer = res.body.access_token as string;
          break;
        case 'self':
          res = await http.get('/api/device/v1/self').set('Authorization', `Bearer ${bearer}`);
          break;
        case 'heartbeat':
          res = await http
            .post('/api/device/v1/heartbeat')
            .set('Authorization', `Bearer ${bearer}`)
            .send({ battery_pct: i % 100 });
          break;
        case 'me':
          res = await http.get('/api/auth/me').set('Cookie', admin.cookie);
          break;
        case 'devices':
          res = await http.get('/api/v1/devices?limit=20').set('Cookie', admin.cookie);
          break;
        case 'webhook': {
          const sub = await createPendingSubscription(t.app);
          const payload = JSON.stringify(checkoutCompletedEvent(sub.id));
          res = await deliver(t, payload, sign(payload));
          break;
        }
      }
      latencies.push(Date.now() - started);
      const key = `${kind}:${res.status}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (res.status >= 500 && unexpected.length < 20)
        unexpected.push(`${key} ${res.text.slice(0, 120)}`);
    };
    // Warm up (JIT, pools, caches) before the first measurement.
    await steadyLoad(RATE, Math.min(10_000, SOAK_SECONDS * 100), task);
    await sleep(500);
    const start = memory();
    const samples: string[] = [];
    const t0 = Date.now();
    let sent = 0;
    const slice = Math.max(10, Math.floor(SOAK_SECONDS / 5)) * 1000;
    while (Date.now() - t0 < SOAK_SECONDS * 1000) {
      sent += await steadyLoad(
        RATE,
        Math.min(slice, SOAK_SECONDS * 1000 - (Date.now() - t0)),
        task,
      );
      samples.push(`${mb(process.memoryUsage().heapUsed)}`);
    }
    const elapsed = (Date.now() - t0) / 1000;
    await sleep(500);
    const end = memory();
    const fiveXx = [...counts].filter(([k]) => /:5\d\d$/.test(k)).reduce((n, [, c]) => n + c, 0);
    const nonOk = [...counts].filter(([k]) => !/:2\d\d$/.test(k));
    recordFigure(
      'Soak',
      'duration / requests / achieved rate',
      `${Math.round(elapsed)} s / ${sent} / ${(sent / elapsed).toFixed(1)} req/s`,
      `${SOAK_SECONDS} s at ${RATE} req/s (RELIABILITY_SOAK_SECONDS)`,
    );
    recordFigure('Soak', 'mix', kinds.join(', '), 'sessions, devices, checkout, webhook, health');
    recordFigure(
      'Soak',
      'unexpected 5xx / non-2xx',
      `${fiveXx} / ${nonOk.map(([k, c]) => `${k}x${c}`).join(' ') || 0}`,
      '0 / 0',
    );
    recordFigure(
      'Soak',
      'latency p50 / p99 / max (2-core box, shared)',
      `${percentile(latencies, 50)} / ${percentile(latencies, 99)} / ${Math.max(...latencies)} ms`,
      'reported',
    );
    recordFigure(
      'Soak',
      'heap after GC: start -> end (growth)',
      `${mb(start.heap)} -> ${mb(end.heap)} MB (${mb(end.heap - start.heap) >= 0 ? '+' : ''}${mb(end.heap - start.heap)} MB)`,
      'reported; < 64 MB',
    );
    recordFigure('Soak', 'RSS: start -> end', `${mb(start.rss)} -> ${mb(end.rss)} MB`, 'reported');
    recordFigure(
      'Soak',
      'heap samples during the soak (MB)',
      samples.join(', '),
      'no steady climb',
    );
    expect(unexpected).toEqual([]);
    expect(nonOk).toEqual([]);
    expect(sent).toBeGreaterThan(RATE * SOAK_SECONDS * 0.8);
    expect(end.heap - start.heap).toBeLessThan(64 * 1024 * 1024);
  });
});
