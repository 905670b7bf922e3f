import { ProbeController } from '../support/probe.controller';
import { createTestApp, TestApp } from '../support/test-app';

const TOKEN = 'operator-token-0123456789';

describe('what strangers learn: /health, /metrics, CORS preflights', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: TOKEN } });
  });
  afterAll(() => t.close());

  it('/health tells anonymous callers (and wrong tokens) only status, checks and version', async () => {
    for (const auth of [undefined, 'Bearer wrong', `Basic ${TOKEN}`]) {
      const req = t.http().get('/health');
      if (auth) req.set('Authorization', auth);
      const res = await req.expect(200);
      expect(Object.keys(res.body as object).sort()).toEqual(['checks', 'status', 'version']);
    }
  });

  it('/health adds its details for the holder of METRICS_TOKEN', async () => {
    const res = await t.http().get('/health').set('Authorization', `Bearer ${TOKEN}`).expect(200);
    expect(res.body.details.sign_in).toMatchObject({ configured: true });
  });

  it('/metrics takes the scheme in any case, and refuses other tokens of any length', async () => {
    for (const scheme of ['bearer', 'BEARER', 'Bearer']) {
      await t.http().get('/metrics').set('Authorization', `${scheme} ${TOKEN}`).expect(200);
    }
    for (const given of ['x', TOKEN.slice(0, -1), `${TOKEN}x`, TOKEN.replace(/.$/, 'X')]) {
      await t.http().get('/metrics').set('Authorization', `Bearer ${given}`).expect(401);
    }
  });

  // The `cors` package with static options also sends `Access-Control-Allow-Credentials: true` to a
  // foreign origin: without `Access-Control-Allow-Origin` a browser grants that origin nothing.
  it('a foreign preflight gets no Access-Control-Allow-Origin; a listed one, with credentials', async () => {
    const preflight = (origin: string) =>
      t
        .http()
        .options('/api/auth/sessions/revoke-others')
        .set('Origin', origin)
        .set('Access-Control-Request-Method', 'POST');
    const foreign = await preflight('https://evil.example');
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const listed = await preflight('http://localhost:3000');
    expect(listed.headers['access-control-allow-credentials']).toBe('true');
    expect(listed.headers['access-control-allow-origin']).toBe('http://localhost:3000');
  });
});

/** The probe route allows 10 requests a minute per address (test/support/probe.controller.ts). */
describe('per-address rate limits and IPv6', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { TRUST_PROXY: 'loopback' },
      extra: { controllers: [ProbeController] },
    });
  });
  afterAll(() => t.close());

  const from = (address: string) => t.http().post('/test/limited').set('X-Forwarded-For', address);

  it('counts every address of one /64 together', async () => {
    for (let i = 1; i <= 10; i++) await from(`2001:db8:aa:1::${i.toString(16)}`).expect(200);
    const res = await from('2001:db8:aa:1:ffff:ffff:ffff:fffe');
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
    // The next /64 is someone else.
    await from('2001:db8:aa:2::1').expect(200);
  });

  it('still counts IPv4 addresses one by one', async () => {
    for (let i = 0; i < 10; i++) await from('198.51.100.1').expect(200);
    expect((await from('198.51.100.1')).status).toBe(429);
    await from('198.51.100.2').expect(200);
  });
});
