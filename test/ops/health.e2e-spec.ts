import { AppBehindProxy, createAppBehindProxy } from '../support/app-behind-proxy';
import type { TcpProxy } from '../support/tcp-proxy';
import { createTestApp, TestApp } from '../support/test-app';

describe('GET /health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reports the database up and the version, and nothing more to anonymous callers', async () => {
    const res = await t.http().get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'up' }, version: 'test' });
  });

  it('answers /health/live without touching dependencies', async () => {
    await t.http().get('/health/live').expect(200, { status: 'ok' });
  });
});

describe('GET /health with METRICS_TOKEN set', () => {
  const TOKEN = 'operator-token-0123456789';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  it('adds details for the token only, answered before the stack with its headers', async () => {
    const res = await t.http().get('/health').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    expect(res.body).toMatchObject({ status: 'ok', details: { sign_in: expect.any(Object) } });
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    const wrong = await t.http().get('/health').set('Authorization', 'Bearer nope').expect(200);
    expect(wrong.body).not.toHaveProperty('details');
    // HEAD, as a balancer may send it: the headers of GET, no body.
    await t.http().head('/health/live').expect(200).expect('Content-Type', /json/);
  });
});

describe('GET /health when the database goes away', () => {
  let behind: AppBehindProxy;
  let proxy: TcpProxy;
  let t: TestApp;
  beforeAll(async () => {
    behind = await createAppBehindProxy();
    ({ t, proxy } = behind);
  });
  afterAll(() => behind.close());

  async function waitForStatus(status: number, withinMs: number): Promise<number> {
    const start = Date.now();
    for (;;) {
      const res = await t.http().get('/health');
      if (res.status === status) return Date.now() - start;
      if (Date.now() - start > withinMs)
        throw new Error(`still ${res.status} after ${withinMs} ms`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }

  it('turns 503 within 5 s of a cut, and 200 again once the database is back', async () => {
    await t.http().get('/health').expect(200);
    proxy.cut();
    await waitForStatus(503, 5000);
    const down = await t.http().get('/health');
    expect(down.body.checks).toEqual({ database: 'down' });
    proxy.restore();
    await waitForStatus(200, 10_000);
  });
});
