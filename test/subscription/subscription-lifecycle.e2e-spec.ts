import type { SubscriptionStatus } from '../../src/subscription/subscription.entity';
import { subscriptionsOf } from '../support/checkout';
import type { ApiShape } from '../support/processor-events';
import {
  baseSeconds,
  detailOf,
  eventsFor,
  LIFECYCLE_ENV,
  newRecord,
  send,
  TestRecord,
} from '../support/subscriptions';
import { createTestApp, TestApp } from '../support/test-app';
import { PAID_DETAILS, webhookEventsOf } from '../support/webhook';

type Events = ReturnType<typeof eventsFor>;
type Row = [
  string,
  SubscriptionStatus,
  SubscriptionStatus,
  (e: Events, at: number) => Record<string, unknown>,
];

/** The transition table of docs/checkout.md, one test per row (and per status a row starts from). */
const ROWS: Row[] = [
  ['checkout.session.completed, paid', 'pending', 'paid', (e, at) => e.completed(at)],
  [
    'checkout.session.completed, no_payment_required',
    'pending',
    'paid',
    (e, at) => e.completed(at, { payment_status: 'no_payment_required' }),
  ],
  [
    'checkout.session.completed, unpaid (fields stored)',
    'pending',
    'pending',
    (e, at) => e.completed(at, { payment_status: 'unpaid' }),
  ],
  ['checkout.session.async_payment_succeeded', 'pending', 'paid', (e, at) => e.asyncSucceeded(at)],
  [
    'checkout.session.async_payment_failed',
    'pending',
    'payment_failed',
    (e, at) => e.asyncFailed(at),
  ],
  ['checkout.session.expired', 'pending', 'expired', (e, at) => e.expired(at)],
  ['invoice.payment_failed', 'paid', 'past_due', (e, at) => e.invoiceFailed(at)],
  [
    'customer.subscription.updated, past_due',
    'paid',
    'past_due',
    (e, at) => e.updated(at, 'past_due'),
  ],
  ['customer.subscription.updated, unpaid', 'paid', 'past_due', (e, at) => e.updated(at, 'unpaid')],
  ['invoice.paid', 'past_due', 'paid', (e, at) => e.invoicePaid(at)],
  ['customer.subscription.updated, active', 'past_due', 'paid', (e, at) => e.updated(at, 'active')],
  ['customer.subscription.deleted', 'pending', 'canceled', (e, at) => e.deleted(at)],
  ['customer.subscription.deleted', 'paid', 'canceled', (e, at) => e.deleted(at)],
  ['customer.subscription.deleted', 'past_due', 'canceled', (e, at) => e.deleted(at)],
  [
    'invoice.paid before the checkout completed',
    'pending',
    'pending',
    (e, at) => e.invoicePaid(at),
  ],
  [
    'invoice.payment_failed before the checkout completed',
    'pending',
    'pending',
    (e, at) => e.invoiceFailed(at),
  ],
];

describe.each<ApiShape>(['current', 'older'])(
  'the subscription lifecycle (%s API shape)',
  (shape) => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ env: LIFECYCLE_ENV });
    });
    afterAll(() => t.close());

    /** A record driven to `status` by real events, created at base, base+10. */
    async function recordIn(status: SubscriptionStatus, base: number): Promise<TestRecord> {
      const r = await newRecord(t);
      const e = eventsFor(r, shape);
      if (status === 'paid' || status === 'past_due') await send(t, e.completed(base));
      if (status === 'past_due') await send(t, e.invoiceFailed(base + 10));
      return r;
    }

    it.each(ROWS)('%s: %s -> %s', async (_what, from, to, make) => {
      const base = baseSeconds();
      const r = await recordIn(from, base);
      const event = make(eventsFor(r, shape), base + 100);
      await send(t, event);
      const detail = await detailOf(t, r.sub.id);
      expect(detail.status).toBe(to);
      expect(detail.history.at(-1)).toEqual({
        event_id: event.id,
        type: event.type,
        from,
        to,
        event_created_at: new Date((base + 100) * 1000).toISOString(),
        received_at: expect.any(String) as string,
        source: 'webhook',
      });
      const outcome = from === to ? 'recorded' : 'applied';
      expect(await webhookEventsOf(t).findOneBy({ id: event.id as string })).toMatchObject({
        outcome,
      });
    });

    it('stores the ten fields, the shipping name and paid_at with the payment', async () => {
      const base = baseSeconds();
      const r = await recordIn('pending', base);
      await send(t, eventsFor(r, shape).completed(base));
      const record = await subscriptionsOf(t).findOneByOrFail({ id: r.sub.id });
      expect(record).toMatchObject({
        ...PAID_DETAILS,
        processorSubscriptionId: r.processorSubscriptionId,
        shippingName: 'Ruth Carer',
        checkoutSessionId: r.sessionId,
        paidAt: new Date(base * 1000),
        canceledAt: null,
      });
    });

    it('stores the processor ids of an invoice that came before the checkout', async () => {
      const r = await recordIn('pending', baseSeconds());
      await send(t, eventsFor(r, shape).invoiceFailed(baseSeconds()));
      expect(await subscriptionsOf(t).findOneByOrFail({ id: r.sub.id })).toMatchObject({
        status: 'pending',
        processorSubscriptionId: r.processorSubscriptionId,
        processorCustomerId: 'cus_test_123',
        customerEmail: null,
      });
    });

    it('stores canceled_at, the time the processor ended the subscription', async () => {
      const base = baseSeconds();
      const r = await recordIn('paid', base);
      await send(t, eventsFor(r, shape).deleted(base + 50));
      expect(await subscriptionsOf(t).findOneByOrFail({ id: r.sub.id })).toMatchObject({
        status: 'canceled',
        paidAt: new Date(base * 1000),
        canceledAt: new Date((base + 50) * 1000),
      });
    });

    it('finds the record by the processor subscription id when the event carries no metadata', async () => {
      const base = baseSeconds();
      const r = await recordIn('paid', base);
      await send(t, eventsFor(r, shape).invoiceFailed(base + 20, false));
      await send(t, eventsFor(r, shape).invoicePaid(base + 30, false));
      const history = (await detailOf(t, r.sub.id)).history.map((h) => [h.from, h.to]);
      expect(history).toEqual([
        ['pending', 'paid'],
        ['paid', 'past_due'],
        ['past_due', 'paid'],
      ]);
    });

    it('acknowledges another product and events naming no record, changing nothing', async () => {
      const r = await recordIn('paid', baseSeconds());
      const before = await detailOf(t, r.sub.id);
      const invoice = JSON.stringify(eventsFor(r, shape).invoiceFailed(baseSeconds() + 5));
      const foreign = JSON.parse(invoice.replaceAll('"lease"', '"gift-card"')) as { id: string };
      const nobody = eventsFor(
        { ...r, sub: { ...r.sub, id: '7a0e3f8e-0000-4000-8000-000000000000' } },
        shape,
      ).deleted(baseSeconds() + 5);
      await send(t, foreign);
      await send(t, nobody);
      expect(await detailOf(t, r.sub.id)).toEqual(before);
      expect(await webhookEventsOf(t).findOneBy({ id: foreign.id })).toMatchObject({
        outcome: 'unknown_product',
      });
      expect(await webhookEventsOf(t).findOneBy({ id: nobody.id as string })).toMatchObject({
        outcome: 'unknown_subscription',
      });
    });
  },
);

describe('the status dates', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: LIFECYCLE_ENV });
  });
  afterAll(() => t.close());

  it("paid_at never reads earlier than created_at (the processor's whole second may)", async () => {
    // Three hours ago and 400 ms into its second.
    const createdAt = new Date(Math.floor(Date.now() / 1000) * 1000 - 3 * 3600 * 1000 + 400);
    const r = await newRecord(t, { createdAt });
    // Created in the same second as the record, by the processor's clock: its whole second.
    const second = Math.floor(r.sub.createdAt.getTime() / 1000);
    expect(second * 1000).toBeLessThan(r.sub.createdAt.getTime());
    await send(t, eventsFor(r).completed(second));
    const detail = await detailOf(t, r.sub.id);
    expect(detail.paid_at).toBe(r.sub.createdAt.toISOString());
    expect(detail.history[0].event_created_at).toBe(new Date(second * 1000).toISOString());
  });

  it('an expired record shows when it expired (expired_at), in the detail shape', async () => {
    const r = await newRecord(t);
    const at = baseSeconds() + 7;
    await send(t, eventsFor(r).expired(at));
    const detail = await detailOf(t, r.sub.id);
    expect(detail).toMatchObject({
      status: 'expired',
      paid_at: null,
      expired_at: new Date(at * 1000).toISOString(),
    });
  });
});
