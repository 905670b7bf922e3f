import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Subscription } from '../src/checkout/subscription.entity';
import { unique } from './support/factories';
import { closedPortUrl, FakeProcessor } from './support/fake-processor';
import { createTestApp, TestApp } from './support/test-app';

const SITE_URL = 'https://care.example.test';

function processorEnv(apiBase: string, extra: Record<string, string> = {}) {
  return {
    STRIPE_SECRET_KEY: 'sk_test_fake_key',
    STRIPE_LEASE_PRICE_ID: 'price_lease_test',
    STRIPE_MONTHLY_PRICE_ID: 'price_monthly_test',
    STRIPE_API_BASE: apiBase,
    SITE_URL,
    ...extra,
  };
}

const subscriptionsOf = (t: TestApp) =>
  t.app.get<Repository<Subscription>>(getRepositoryToken(Subscription));
const byEmail = (t: TestApp, email: string) => subscriptionsOf(t).findBy({ email });
const newEmail = () => `${unique('buyer')}@example.com`;

describe('GET /api/lease/checkout-config', () => {
  it('says enabled with the amounts when the key and both prices are set, with no rate limit', async () => {
    const t = await createTestApp({ env: processorEnv('http://127.0.0.1:9') });
    try {
      for (let i = 0; i < 15; i++) {
        const res = await t.http().get('/api/lease/checkout-config').expect(200);
        expect(res.body).toEqual({
          enabled: true,
          lease_cents: 24900,
          monthly_cents: 5000,
          currency: 'usd',
        });
        expect(res.headers['ratelimit-limit']).toBeUndefined();
      }
    } finally {
      await t.close();
    }
  });

  it('says disabled when a price id is missing', async () => {
    const env = processorEnv('http://127.0.0.1:9');
    delete (env as Partial<typeof env>).STRIPE_MONTHLY_PRICE_ID;
    const t = await createTestApp({ env });
    try {
      const res = await t.http().get('/api/lease/checkout-config').expect(200);
      expect(res.body).toEqual({
        enabled: false,
        lease_cents: 24900,
        monthly_cents: 5000,
        currency: 'usd',
      });
    } finally {
      await t.close();
    }
  });
});

describe('POST /api/lease/checkout against the processor', () => {
  let fake: FakeProcessor;
  let t: TestApp;
  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    t = await createTestApp({
      env: processorEnv(fake.url, { RATE_LIMIT_CHECKOUT_PER_MINUTE: '1000' }),
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });
  beforeEach(() => fake.reset());

  it('stores a pending intent and opens a session with every parameter the contract lists', async () => {
    const email = newEmail();
    const res = await t
      .http()
      .post('/api/lease/checkout')
      .send({ name: 'Dana Carer', email, coupon: 'BETA-Tester', source: 'newsletter' })
      .expect(200);
    const id = res.body.subscription_id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const [call] = fake.sessionRequests();
    expect(fake.sessionRequests()).toHaveLength(1);
    expect(call.headers['authorization']).toBe('Bearer sk_test_fake_key');
    expect(call.headers['idempotency-key']).toBe(`checkout-session-${id}`);
    expect(call.form).toEqual({
      mode: 'subscription',
      'line_items[0][price]': 'price_lease_test',
      'line_items[0][quantity]': '1',
      'line_items[1][price]': 'price_monthly_test',
      'line_items[1][quantity]': '1',
      'discounts[0][coupon]': 'beta-tester',
      customer_email: email,
      'phone_number_collection[enabled]': 'true',
      'shipping_address_collection[allowed_countries][0]': 'US',
      'custom_fields[0][key]': 'recipient_name',
      'custom_fields[0][label][type]': 'custom',
      'custom_fields[0][label][custom]': 'Care recipient name',
      'custom_fields[0][type]': 'text',
      'custom_fields[0][text][maximum_length]': '120',
      'custom_fields[1][key]': 'living_situation',
      'custom_fields[1][label][type]': 'custom',
      'custom_fields[1][label][custom]': 'Recipient living situation',
      'custom_fields[1][type]': 'dropdown',
      'custom_fields[1][dropdown][options][0][value]': 'livesalone',
      'custom_fields[1][dropdown][options][0][label]': 'Lives alone',
      'custom_fields[1][dropdown][options][1][value]': 'liveswithspouse',
      'custom_fields[1][dropdown][options][1][label]': 'Lives with spouse-partner',
      'custom_fields[1][dropdown][options][2][value]': 'liveswithfamily',
      'custom_fields[1][dropdown][options][2][label]': 'Lives with family',
      'custom_fields[1][dropdown][options][3][value]': 'assistedliving',
      'custom_fields[1][dropdown][options][3][label]': 'Assisted living',
      'custom_fields[2][key]': 'primary_concern',
      'custom_fields[2][label][type]': 'custom',
      'custom_fields[2][label][custom]': 'Main concern',
      'custom_fields[2][type]': 'dropdown',
      'custom_fields[2][dropdown][options][0][value]': 'companionship',
      'custom_fields[2][dropdown][options][0][label]': 'Companionship',
      'custom_fields[2][dropdown][options][1][value]': 'safetycheckins',
      'custom_fields[2][dropdown][options][1][label]': 'Safety and check-ins',
      'custom_fields[2][dropdown][options][2][value]': 'medicationreminders',
      'custom_fields[2][dropdown][options][2][label]': 'Medication reminders',
      'custom_fields[2][dropdown][options][3][value]': 'memorysupport',
      'custom_fields[2][dropdown][options][3][label]': 'Memory and cognitive support',
      'custom_fields[2][dropdown][options][4][value]': 'stayingconnected',
      'custom_fields[2][dropdown][options][4][label]': 'Staying connected with family',
      client_reference_id: id,
      'metadata[product]': 'lease',
      'metadata[subscription_id]': id,
      'subscription_data[metadata][product]': 'lease',
      'subscription_data[metadata][subscription_id]': id,
      success_url: `${SITE_URL}/plans/success?session_id={CHECKOUT_SESSION_ID}`,
      cancel_url: `${SITE_URL}/plans/cancel`,
    });
    const record = await subscriptionsOf(t).findOneByOrFail({ id });
    expect(res.body).toEqual({
      ok: true,
      subscription_id: id,
      checkout_url: `https://checkout.stripe.test/c/pay/${record.checkoutSessionId}`,
      lease_cents: 24900,
      monthly_cents: 5000,
      currency: 'usd',
    });
    expect(record).toMatchObject({
      status: 'pending',
      product: 'lease',
      name: 'Dana Carer',
      email,
      coupon: 'beta-tester',
      source: 'newsletter',
      lastProcessorError: null,
    });
    expect(record.checkoutSessionId).toMatch(/^cs_test_/);
  });

  it('sends no discount or email when none is given, and defaults the source to plans', async () => {
    const res = await t.http().post('/api/lease/checkout').send({ coupon: '  ' }).expect(200);
    const form = fake.sessionRequests()[0].form;
    expect(Object.keys(form).filter((k) => /discounts|customer_email/.test(k))).toEqual([]);
    const record = await subscriptionsOf(t).findOneByOrFail({ id: res.body.subscription_id });
    expect(record).toMatchObject({ source: 'plans', coupon: null, email: null, name: null });
  });

  it.each([
    ['a name over 120 characters', { name: 'x'.repeat(121) }, 'name'],
    ['a malformed email', { email: 'not-an-email' }, 'email'],
    ['an email over 160 characters', { email: `${'a'.repeat(150)}@example.com` }, 'email'],
    ['an unknown field', { plan: 'gold' }, 'plan'],
    ['a non-boolean contains_phi', { contains_phi: 'no' }, 'contains_phi'],
  ])('refuses %s with 400 validation_failed and stores nothing', async (_what, body, field) => {
    const before = await subscriptionsOf(t).count();
    const res = await t.http().post('/api/lease/checkout').send(body).expect(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    expect(fake.requests).toHaveLength(0);
    expect(await subscriptionsOf(t).count()).toBeGreaterThanOrEqual(before);
  });

  it('refuses contains_phi: true with 400 phi_not_accepted before storing anything', async () => {
    const email = newEmail();
    const res = await t
      .http()
      .post('/api/lease/checkout')
      .send({ email, contains_phi: true })
      .expect(400);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('phi_not_accepted');
    expect(await byEmail(t, email)).toEqual([]);
    expect(fake.requests).toHaveLength(0);
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
