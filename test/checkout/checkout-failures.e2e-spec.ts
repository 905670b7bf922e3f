import { capturedLogs } from '../support/captured-logs';
import { newEmail, processorEnv, subscriptionsByEmail as byEmail } from '../support/checkout';
import { closedPortUrl, FakeProcessor } from '../support/fake-processor';
import { createTestApp, TestApp } from '../support/test-app';

describe('POST /api/lease/checkout when the processor refuses', () => {
  let fake: FakeProcessor;
  let t: TestApp;
  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    t = await createTestApp({ env: processorEnv(fake.url) });
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  it('answers 400 invalid_coupon for a coupon the processor does not know, keeping the intent', async () => {
    fake.reset('noSuchCoupon');
    const email = newEmail();
    const res = await t
      .http()
      .post('/api/lease/checkout')
      .send({ email, coupon: 'NOPE' })
      .expect(400);
    expect(res.body.code).toBe('invalid_coupon');
    expect(fake.sessionRequests()[0].form['discounts[0][coupon]']).toBe('nope');
    const [record] = await byEmail(t, email);
    expect(record).toMatchObject({ status: 'pending', coupon: 'nope', checkoutSessionId: null });
    expect(record.lastProcessorError).toMatch(/No such coupon/);
  });

  it('answers 502 when the processor fails, after retrying with the same idempotency key', async () => {
    fake.reset('error500');
    const email = newEmail();
    const res = await t.http().post('/api/lease/checkout').send({ email }).expect(502);
    expect(res.body.code).toBe('processor_unavailable');
    expect(JSON.stringify(res.body)).not.toMatch(/sk_test/);
    const [record] = await byEmail(t, email);
    expect(record).toMatchObject({ status: 'pending', checkoutSessionId: null });
    expect(record.lastProcessorError).toMatch(/500/);
    const keys = fake.sessionRequests().map((r) => r.headers['idempotency-key']);
    expect(keys).toHaveLength(3); // the first try and STRIPE_MAX_NETWORK_RETRIES=2
    expect(new Set(keys)).toEqual(new Set([`checkout-session-${record.id}`]));
  });
});

describe('POST /api/lease/checkout when the processor refuses the request itself', () => {
  let fake: FakeProcessor;
  let t: TestApp;
  const { lines, options } = capturedLogs();
  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    t = await createTestApp({ ...options, env: { ...options.env, ...processorEnv(fake.url) } });
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  it.each([
    ['a wrong price id', 'noSuchPrice', /400 resource_missing No such price: 'price_lease_test'/],
    ['a revoked key', 'badKey', /401 Invalid API Key provided/],
  ] as const)(
    'answers 502 processor_rejected for %s, at once, and logs it as an error with the request id',
    async (_what, mode, reason) => {
      fake.reset(mode);
      const email = newEmail();
      const res = await t.http().post('/api/lease/checkout').send({ email }).expect(502);
      expect(res.body.code).toBe('processor_rejected');
      expect(JSON.stringify(res.body)).not.toMatch(/price_|sk_test/);
      const [record] = await byEmail(t, email);
      expect(record).toMatchObject({ status: 'pending', checkoutSessionId: null });
      expect(record.lastProcessorError).toMatch(reason);
      expect(record.lastProcessorError).toMatch(/\(request req_[0-9a-f]+\)/);
      // Not worth retrying: one attempt only.
      expect(fake.sessionRequests()).toHaveLength(1);
      const logged = lines
        .map((l) => JSON.parse(l) as { level: number; msg?: string })
        .filter((l) => l.msg?.includes(record.id));
      expect(logged).toEqual([expect.objectContaining({ level: 50 })]);
      expect(logged[0].msg).toMatch(reason);
      expect(logged[0].msg).toMatch(/request req_/);
      expect(lines.join('')).not.toContain(email);
    },
  );

  it('keeps a rate limit (429) processor_unavailable: it is worth trying again', async () => {
    fake.reset('error429');
    const res = await t.http().post('/api/lease/checkout').send({}).expect(502);
    expect(res.body.code).toBe('processor_unavailable');
  });

  it('still answers 400 invalid_coupon for a coupon the processor does not know', async () => {
    fake.reset('noSuchCoupon');
    const res = await t.http().post('/api/lease/checkout').send({ coupon: 'NOPE' }).expect(400);
    expect(res.body.code).toBe('invalid_coupon');
  });
});

describe('POST /api/lease/checkout when the processor cannot be reached', () => {
  it('answers 502 on a refused connection, keeping the pending intent', async () => {
    const t = await createTestApp({
      env: processorEnv(await closedPortUrl(), { STRIPE_MAX_NETWORK_RETRIES: '1' }),
    });
    try {
      const email = newEmail();
      const res = await t.http().post('/api/lease/checkout').send({ email }).expect(502);
      expect(res.body.code).toBe('processor_unavailable');
      const [record] = await byEmail(t, email);
      expect(record).toMatchObject({ status: 'pending', checkoutSessionId: null });
      expect(record.lastProcessorError).toMatch(/connection|ECONNREFUSED/i);
    } finally {
      await t.close();
    }
  });

  it('answers 502 when the processor never answers, once the timeout has passed', async () => {
    const fake = await new FakeProcessor().start();
    fake.reset('hang');
    const t = await createTestApp({
      env: processorEnv(fake.url, { STRIPE_TIMEOUT_MS: '500', STRIPE_MAX_NETWORK_RETRIES: '1' }),
    });
    try {
      const email = newEmail();
      const res = await t.http().post('/api/lease/checkout').send({ email }).expect(502);
      expect(res.body.code).toBe('processor_unavailable');
      const [record] = await byEmail(t, email);
      expect(record).toMatchObject({ status: 'pending', checkoutSessionId: null });
      expect(record.lastProcessorError).toMatch(/timeout/i);
      expect(fake.sessionRequests()).toHaveLength(2);
    } finally {
      await t.close();
      await fake.stop();
    }
  });
});

describe('POST /api/lease/checkout without processor configuration', () => {
  it('answers 503 checkout_not_configured and stores nothing', async () => {
    const t = await createTestApp();
    try {
      const email = newEmail();
      const res = await t.http().post('/api/lease/checkout').send({ email }).expect(503);
      expect(res.body.code).toBe('checkout_not_configured');
      expect(await byEmail(t, email)).toEqual([]);
    } finally {
      await t.close();
    }
  });
});

describe('POST /api/lease/checkout rate limit', () => {
  it('gives one address 10 checkouts a minute; a forged X-Forwarded-For buys no more', async () => {
    const fake = await new FakeProcessor().start();
    const t = await createTestApp({ env: processorEnv(fake.url) });
    try {
      for (let i = 0; i < 10; i++) {
        await t
          .http()
          .post('/api/lease/checkout')
          .set('X-Forwarded-For', `203.0.113.${i}`)
          .send({})
          .expect(200);
      }
      const res = await t
        .http()
        .post('/api/lease/checkout')
        .set('X-Forwarded-For', '198.51.100.7')
        .send({});
      expect(res.status).toBe(429);
      expect(res.body.code).toBe('rate_limited');
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(fake.sessionRequests()).toHaveLength(10);
    } finally {
      await t.close();
      await fake.stop();
    }
  });
});
