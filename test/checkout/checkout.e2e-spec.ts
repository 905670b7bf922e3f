import {
  newEmail,
  openedBody,
  processorEnv,
  SITE_URL,
  subscriptionsByEmail as byEmail,
  subscriptionsOf,
} from '../support/checkout';
import { unique } from '../support/factories';
import { Subscription } from '../../src/subscription/subscription.entity';
import { SubscriptionService } from '../../src/subscription/subscription.service';
import { SubscriptionRecordDto } from '../../src/subscription/subscription-view.dto';
import { DataSource } from 'typeorm';
import { FakeProcessor } from '../support/fake-processor';
import { createTestApp, TestApp } from '../support/test-app';

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

  it('does not boot with a price id missing, naming it (docs/operations.md)', async () => {
    const env = processorEnv('http://127.0.0.1:9');
    delete (env as Partial<typeof env>).STRIPE_MONTHLY_PRICE_ID;
    await expect(createTestApp({ env })).rejects.toThrow(/STRIPE_MONTHLY_PRICE_ID: must be set/);
  });
});

describe('API docs', () => {
  it('document the checkout and webhook routes', async () => {
    const t = await createTestApp();
    try {
      const res = await t.http().get('/api/docs-json').expect(200);
      expect(Object.keys(res.body.paths)).toEqual(
        expect.arrayContaining([
          '/api/lease/checkout-config',
          '/api/lease/checkout',
          '/api/payment-processor/webhook',
        ]),
      );
    } finally {
      await t.close();
    }
  });
});

/** A domain label validator.js takes (63 code units at most) of 62 code points. */
const LABEL = 'a\uFE0F'.repeat(31);

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
    // Read on another connection while the processor call is in flight: the intent is committed.
    let seenByProcessor: unknown;
    fake.onSessionRequest = async (req) => {
      seenByProcessor = await subscriptionsOf(t).findOneBy({ id: req.form.client_reference_id });
    };
    const res = await t
      .http()
      .post('/api/lease/checkout')
      .send({ name: 'Dana Carer', email, coupon: 'BETA-Tester', source: 'newsletter' })
      .expect(200);
    const id = res.body.subscription_id as string;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(seenByProcessor).toMatchObject({
      id,
      status: 'pending',
      email,
      checkoutSessionId: null,
    });
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
      checkout_url: `${fake.url}/c/pay/${record.checkoutSessionId}`,
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

  it('returns the stored intent as TypeORM reads it back, every column, at the Clock', async () => {
    const intent = pendingIntent({ name: 'Dana Carer' });
    const created = await t.app.get(SubscriptionService).createPending(intent);
    const stored = await subscriptionsOf(t).findOneByOrFail({ id: created.id });
    expect(created).toBeInstanceOf(Subscription);
    expect(created).toEqual(stored);
    expect(stored).toMatchObject({ ...intent, product: 'lease', status: 'pending' });
    expect(stored.updatedAt).toEqual(stored.createdAt);
  });

  it('stores subscription.created with the intent, settled at once without a fulfilment org', async () => {
    const created = await t.app.get(SubscriptionService).createPending(pendingIntent());
    const db = t.app.get(DataSource);
    const events = await db.query<
      {
        id: string;
        org_id: string | null;
        payload: string;
        data_key_id: string | null;
        created_at: Date;
        settled_at: Date;
      }[]
    >(
      `SELECT id, org_id, payload, data_key_id, created_at, settled_at FROM outgoing_events
       WHERE type = 'subscription.created' AND data_key_id = $1`,
      [created.id],
    );
    expect(events).toHaveLength(1);
    const [event] = events;
    expect(await openedBody(t.app, event)).toEqual({
      type: 'subscription.created',
      timestamp: event.created_at.toISOString(),
      data: SubscriptionRecordDto.from(created),
    });
    expect(event.org_id).toBeNull();
    expect(event.settled_at).toEqual(event.created_at);
    const deliveries = await db.query<unknown[]>(
      'SELECT 1 FROM webhook_deliveries WHERE event_id = $1',
      [event.id],
    );
    expect(deliveries).toEqual([]);
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
    // Lengths as stored: `İ` lower-cases to two code points, and validator.js counts a letter with
    // its variation selector (U+FE0F) as one while PostgreSQL's varchar counts two.
    ['a coupon over 100 characters once lower-cased', { coupon: 'İ'.repeat(51) }, 'coupon'],
    ['a coupon over 100 code points', { coupon: 'a\uFE0F'.repeat(51) }, 'coupon'],
    ['a name over 120 code points', { name: 'a\uFE0F'.repeat(61) }, 'name'],
    [
      'an email over 160 code points',
      { email: `${'a'.repeat(64)}@${LABEL}.${LABEL}.com` },
      'email',
    ],
    ['a non-boolean contains_phi', { contains_phi: 'no' }, 'contains_phi'],
  ])('refuses %s with 400 validation_failed and stores nothing', async (_what, body, field) => {
    const source = unique('src');
    const res = await t
      .http()
      .post('/api/lease/checkout')
      .send({ ...body, source })
      .expect(400);
    expect(res.body.code).toBe('validation_failed');
    const fields = (res.body.errors as { field: string }[]).map((e) => e.field);
    expect(fields).toContain(field);
    expect(fake.requests).toHaveLength(0);
    expect(await subscriptionsOf(t).findBy({ source })).toEqual([]);
  });

  it('stores a coupon of 100 characters as lower-cased, within its column', async () => {
    const coupon = 'İ'.repeat(50);
    const res = await t.http().post('/api/lease/checkout').send({ coupon }).expect(200);
    const record = await subscriptionsOf(t).findOneByOrFail({ id: res.body.subscription_id });
    expect(record.coupon).toBe(coupon.toLowerCase());
    expect([...record.coupon!]).toHaveLength(100);
    expect(fake.sessionRequests()[0].form['discounts[0][coupon]']).toBe(coupon.toLowerCase());
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
});

/** A checkout's intent as the service records it, with a fresh email and source. */
function pendingIntent(fields: { name?: string | null } = {}) {
  return {
    name: null,
    email: newEmail(),
    coupon: null,
    source: unique('src'),
    leaseCents: 24900,
    monthlyCents: 5000,
    currency: 'usd',
    ...fields,
  };
}
