import { subscriptionsOf } from '../support/checkout';
import { createPendingSubscription } from '../support/factories';
import { checkoutCompletedEvent, otherEvent, sign } from '../support/processor-events';
import { TcpProxy } from '../support/tcp-proxy';
import { createTestApp, TestApp, testDatabaseUrl } from '../support/test-app';
import {
  deliver,
  PAID_DETAILS,
  WEBHOOK_ENV,
  webhookEventsOf as eventsOf,
} from '../support/webhook';

describe('POST /api/payment-processor/webhook: duplicates, order and routing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: WEBHOOK_ENV });
  });
  afterAll(() => t.close());

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
    // A second settled session for the same record (another event id) is recorded, not applied.
    const again = checkoutCompletedEvent(sub.id, {
      customer_details: { email: 'someone@else.test', name: 'Other', phone: null },
    });
    const second = JSON.stringify(again);
    await deliver(t, second, sign(second)).expect(200, { received: true });
    expect(await subscriptionsOf(t).findOneByOrFail({ id: sub.id })).toEqual(paid);
    expect(await eventsOf(t).findOneBy({ id: again.id as string })).toMatchObject({
      outcome: 'recorded',
    });
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
      outcome: 'recorded',
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

  it('acknowledges an event type it does not handle with 200 and changes nothing', async () => {
    const sub = await createPendingSubscription(t.app);
    const before = await subscriptionsOf(t).findOneByOrFail({ id: sub.id });
    const event: Record<string, unknown> = {
      ...checkoutCompletedEvent(sub.id),
      type: 'checkout.session.updated',
    };
    const other = otherEvent('customer.created');
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

describe('POST /api/payment-processor/webhook when the event cannot be stored', () => {
  let proxy: TcpProxy;
  let t: TestApp;
  beforeAll(async () => {
    proxy = await TcpProxy.toDatabase(testDatabaseUrl()).start();
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
