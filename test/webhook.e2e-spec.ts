import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { WEBHOOK_PATH } from '../src/app.setup';
import { Subscription } from '../src/checkout/subscription.entity';
import { ProcessedWebhookEvent } from '../src/webhook/processed-webhook-event.entity';
import { createPendingSubscription } from './support/factories';
import {
  checkoutCompletedEvent,
  OLD_WEBHOOK_SECRET,
  otherEvent,
  sign,
  WEBHOOK_SECRET,
} from './support/processor-events';
import { TcpProxy } from './support/tcp-proxy';
import { createTestApp, TestApp, testDatabaseUrl } from './support/test-app';

const WEBHOOK_ENV = { STRIPE_WEBHOOK_SECRET: `${WEBHOOK_SECRET},${OLD_WEBHOOK_SECRET}` };

const subscriptionsOf = (t: TestApp) =>
  t.app.get<Repository<Subscription>>(getRepositoryToken(Subscription));
const eventsOf = (t: TestApp) =>
  t.app.get<Repository<ProcessedWebhookEvent>>(getRepositoryToken(ProcessedWebhookEvent));

/** Delivers a payload as the processor does: exact bytes, JSON content type, signature header. */
function deliver(t: TestApp, payload: string, signature?: string) {
  const req = t.http().post(WEBHOOK_PATH).set('Content-Type', 'application/json; charset=utf-8');
  if (signature !== undefined) req.set('Stripe-Signature', signature);
  return req.send(payload);
}

const PAID_DETAILS = {
  status: 'paid',
  customerEmail: 'dana@example.com',
  customerName: 'Dana Carer',
  customerPhone: '+15555550123',
  recipientName: 'Ruth Carer',
  livingSituation: 'livesalone',
  primaryConcern: 'medicationreminders',
  shippingAddress: '1 Main St, Apt 2, Springfield, IL 62701, US',
  recipientZip: '62701',
  processorSubscriptionId: 'sub_test_456',
  processorCustomerId: 'cus_test_123',
};

describe('POST /api/payment-processor/webhook', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: WEBHOOK_ENV });
  });
  afterAll(() => t.close());

  it('marks the subscription paid with every item the processor collected', async () => {
    const sub = await createPendingSubscription(t.app);
    const event = checkoutCompletedEvent(sub.id);
    const payload = JSON.stringify(event);
    await deliver(t, payload, sign(payload)).expect(200, { received: true });
    const record = await subscriptionsOf(t).findOneByOrFail({ id: sub.id });
    expect(record).toMatchObject({
      ...PAID_DETAILS,
      checkoutSessionId: (event.data as { object: { id: string } }).object.id,
    });
    expect(record.paidAt).toBeInstanceOf(Date);
    expect(await eventsOf(t).findOneBy({ id: event.id as string })).toMatchObject({
      type: 'checkout.session.completed',
      outcome: 'applied',
    });
  });

  it('accepts a signature made with the previous secret while it is being rotated', async () => {
    const sub = await createPendingSubscription(t.app);
    const payload = JSON.stringify(checkoutCompletedEvent(sub.id));
    await deliver(t, payload, sign(payload, OLD_WEBHOOK_SECRET)).expect(200, { received: true });
    expect(await subscriptionsOf(t).findOneByOrFail({ id: sub.id })).toMatchObject({
      status: 'paid',
    });
  });

  it('reads shipping where older API versions put it (top-level shipping_details)', async () => {
    const sub = await createPendingSubscription(t.app);
    const address = {
      line1: '9 Oak Ave',
      city: 'Austin',
      state: 'TX',
      postal_code: '73301',
      country: 'US',
    };
    const payload = JSON.stringify(
      checkoutCompletedEvent(sub.id, {
        collected_information: undefined,
        shipping_details: { name: 'Al', address },
      }),
    );
    await deliver(t, payload, sign(payload)).expect(200);
    expect(await subscriptionsOf(t).findOneByOrFail({ id: sub.id })).toMatchObject({
      status: 'paid',
      shippingAddress: '9 Oak Ave, Austin, TX 73301, US',
      recipientZip: '73301',
    });
  });

  describe('refuses with 400 invalid_signature and changes nothing', () => {
    const cases: [string, (payload: string) => { body: string; signature?: string }][] = [
      ['a missing signature', (payload) => ({ body: payload })],
      ['a wrong secret', (payload) => ({ body: payload, signature: sign(payload, 'whsec_wrong') })],
      [
        'a signature older than 300 s',
        (payload) => ({
          body: payload,
          signature: sign(payload, WEBHOOK_SECRET, Math.floor(Date.now() / 1000) - 301),
        }),
      ],
      [
        'an altered body',
        (payload) => ({
          body: payload.replace('"payment_status":"paid"', '"payment_status":"paid" '),
          signature: sign(payload),
        }),
      ],
      ['a malformed header', (payload) => ({ body: payload, signature: 'garbage' })],
    ];
    it.each(cases)('%s', async (_what, make) => {
      const sub = await createPendingSubscription(t.app);
      const event = checkoutCompletedEvent(sub.id);
      const { body, signature } = make(JSON.stringify(event));
      const res = await deliver(t, body, signature).expect(400);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body.code).toBe('invalid_signature');
      expect(await subscriptionsOf(t).findOneByOrFail({ id: sub.id })).toMatchObject({
        status: 'pending',
        customerEmail: null,
        paidAt: null,
      });
      expect(await eventsOf(t).findOneBy({ id: event.id as string })).toBeNull();
    });
  });

  it('applies the same event delivered 20 times at once exactly once', async () => {
    const sub = await createPendingSubscription(t.app);
    const event = checkoutCompletedEvent(sub.id);
    const payload = JSON.stringify(event);
    const signature = sign(payload);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => deliver(t, payload, signature)),
    );
    for (const res of responses)
      expect({ status: res.status, body: res.body }).toEqual({
        status: 200,
        body: { received: true },
      });
    const rows = await eventsOf(t).findBy({ id: event.id as string });
    expect(rows).toEqual([expect.objectContaining({ outcome: 'applied' })]);
    const record = await subscriptionsOf(t).findOneByOrFail({ id: sub.id });
    expect(record).toMatchObject(PAID_DETAILS);
    // A 21st delivery later changes nothing either, not even the timestamps.
    await deliver(t, payload, sign(payload)).expect(200, { received: true });
    const after = await subscriptionsOf(t).findOneByOrFail({ id: sub.id });
    expect(after.updatedAt).toEqual(record.updatedAt);
    expect(after.paidAt).toEqual(record.paidAt);
  });

  it('never takes a paid record back or rewrites it with a later event', async () => {
    const sub = await createPendingSubscription(t.app);
    const first = JSON.stringify(checkoutCompletedEvent(sub.id));
    await deliver(t, first, sign(first)).expect(200);
    const paid = await subscriptionsOf(t).findOneByOrFail({ id: sub.id });
    const late = checkoutCompletedEvent(sub.id, {
      payment_status: 'unpaid',
      customer_details: { email: 'someone@else.test', name: 'Other', phone: null },
    });
    const payload = JSON.stringify(late);
    await deliver(t, payload, sign(payload)).expect(200, { received: true });
    expect(await subscriptionsOf(t).findOneByOrFail({ id: sub.id })).toEqual(paid);
  });

  it('keeps a session whose payment is not settled yet pending', async () => {
    const sub = await createPendingSubscription(t.app);
    const event = checkoutCompletedEvent(sub.id, { payment_status: 'unpaid' });
    const payload = JSON.stringify(event);
    await deliver(t, payload, sign(payload)).expect(200, { received: true });
    expect(await subscriptionsOf(t).findOneByOrFail({ id: sub.id })).toMatchObject({
      status: 'pending',
      paidAt: null,
    });
    expect(await eventsOf(t).findOneBy({ id: event.id as string })).toMatchObject({
      outcome: 'awaiting_payment',
    });
  });

  it('acknowledges an unknown product with 200 and changes nothing', async () => {
    const sub = await createPendingSubscription(t.app);
    const before = await subscriptionsOf(t).findOneByOrFail({ id: sub.id });
    const event = checkoutCompletedEvent(sub.id, {
      metadata: { product: 'gift-card', subscription_id: sub.id },
    });
    const payload = JSON.stringify(event);
    await deliver(t, payload, sign(payload)).expect(200, { received: true });
    expect(await subscriptionsOf(t).findOneByOrFail({ id: sub.id })).toEqual(before);
    expect(await eventsOf(t).findOneBy({ id: event.id as string })).toMatchObject({
      outcome: 'unknown_product',
    });
  });

  it('acknowledges an unknown event type with 200 and changes nothing', async () => {
    const sub = await createPendingSubscription(t.app);
    const before = await subscriptionsOf(t).findOneByOrFail({ id: sub.id });
    const event = {
      ...checkoutCompletedEvent(sub.id),
      type: 'checkout.session.expired',
    };
    const other = otherEvent('invoice.paid');
    for (const e of [event, other]) {
      const payload = JSON.stringify(e);
      await deliver(t, payload, sign(payload)).expect(200, { received: true });
      expect(await eventsOf(t).findOneBy({ id: e.id as string })).toMatchObject({
        outcome: 'ignored',
      });
    }
    expect(await subscriptionsOf(t).findOneByOrFail({ id: sub.id })).toEqual(before);
  });

  it('acknowledges a completed session naming no known subscription', async () => {
    const event = checkoutCompletedEvent('7a0e3f8e-0000-4000-8000-000000000000');
    const payload = JSON.stringify(event);
    await deliver(t, payload, sign(payload)).expect(200, { received: true });
    expect(await eventsOf(t).findOneBy({ id: event.id as string })).toMatchObject({
      outcome: 'unknown_subscription',
    });
  });
});

describe('POST /api/payment-processor/webhook without a secret', () => {
  it('fails closed with 503 webhook_not_configured', async () => {
    const t = await createTestApp();
    try {
      const sub = await createPendingSubscription(t.app);
      const payload = JSON.stringify(checkoutCompletedEvent(sub.id));
      const res = await deliver(t, payload, sign(payload)).expect(503);
      expect(res.body.code).toBe('webhook_not_configured');
      expect(await subscriptionsOf(t).findOneByOrFail({ id: sub.id })).toMatchObject({
        status: 'pending',
      });
    } finally {
      await t.close();
    }
  });
});

describe('POST /api/payment-processor/webhook when the event cannot be stored', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  beforeAll(async () => {
    const target = new URL(testDatabaseUrl());
    proxy = await new TcpProxy(target.hostname, Number(target.port || 5432)).start();
    t = await createTestApp({
      env: { ...WEBHOOK_ENV, DATABASE_URL: TcpProxy.via(testDatabaseUrl(), proxy) },
    });
  });
  afterAll(async () => {
    proxy.restore();
    await t.close();
    await proxy.stop();
  });

  it('answers 500 so the processor retries, and applies the retry once the database is back', async () => {
    const sub = await createPendingSubscription(t.app);
    const payload = JSON.stringify(checkoutCompletedEvent(sub.id));
    proxy.cut();
    const res = await deliver(t, payload, sign(payload));
    expect(res.status).toBe(500);
    expect(res.body.code).toBe('internal_error');
    proxy.restore();
    // The processor retries with the same event; the first success applies it.
    let status = 0;
    for (let i = 0; i < 20 && status !== 200; i++) {
      status = (await deliver(t, payload, sign(payload))).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 250));
    }
    expect(status).toBe(200);
    expect(await subscriptionsOf(t).findOneByOrFail({ id: sub.id })).toMatchObject(PAID_DETAILS);
  });
});
