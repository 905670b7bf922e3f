import { TcpProxy } from './support/tcp-proxy';
import { createTestApp, TestApp, testDatabaseUrl } from './support/test-app';

describe('GET /health', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('reports the database up and the version', async () => {
    const res = await t.http().get('/health').expect(200);
    expect(res.body).toEqual({ status: 'ok', checks: { database: 'up' }, version: 'test' });
  });

  it('answers /health/live without touching dependencies', async () => {
    await t.http().get('/health/live').expect(200, { status: 'ok' });
  });
});

describe('GET /health when the database goes away', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  beforeAll(async () => {
    const target = new URL(testDatabaseUrl());
    proxy = await new TcpProxy(target.hostname, Number(target.port || 5432)).start();
    t = await createTestApp({ env: { DATABASE_URL: TcpProxy.via(testDatabaseUrl(), proxy) } });
  });
  afterAll(async () => {
    proxy.restore();
    await t.close();
    await proxy.stop();
  });

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
