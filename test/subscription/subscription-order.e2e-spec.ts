import { subscriptionsOf } from '../support/checkout';
import {
  baseSeconds,
  detailOf,
  eventsFor,
  LIFECYCLE_ENV,
  newRecord,
  send,
  TestRecord,
  timelineOf,
} from '../support/subscriptions';
import { createTestApp, TestApp } from '../support/test-app';

type Events = ReturnType<typeof eventsFor>;
type Make = (e: Events, at: number) => Record<string, unknown>;

/**
 * docs/checkout.md, "Order": the processor delivers at least once and in any order. Each
 * rule, every out-of-order pair of a subscription's real life, and 20 events at once.
 */
describe('subscription events out of order', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: LIFECYCLE_ENV });
  });
  afterAll(() => t.close());

  /**
   * Delivers `makes` to a new record in `order`, the i-th created at base + 10 × i, in the
   * current API shape and the older one by turns.
   */
  async function lived(makes: Make[], order: number[], base = baseSeconds()): Promise<TestRecord> {
    const r = await newRecord(t);
    for (const i of order) {
      await send(t, makes[i](eventsFor(r, i % 2 ? 'older' : 'current'), base + 10 * i));
    }
    return r;
  }

  describe('final statuses stay final', () => {
    const OTHERS: [string, Make][] = [
      ['completed', (e, at) => e.completed(at)],
      ['async_payment_succeeded', (e, at) => e.asyncSucceeded(at)],
      ['async_payment_failed', (e, at) => e.asyncFailed(at)],
      ['expired', (e, at) => e.expired(at)],
      ['invoice.paid', (e, at) => e.invoicePaid(at)],
      ['invoice.payment_failed', (e, at) => e.invoiceFailed(at)],
      ['updated active', (e, at) => e.updated(at, 'active')],
      ['updated past_due', (e, at) => e.updated(at, 'past_due')],
      ['deleted', (e, at) => e.deleted(at)],
    ];
    it.each<[string, Make]>([
      ['canceled', (e, at) => e.deleted(at)],
      ['expired', (e, at) => e.expired(at)],
      ['payment_failed', (e, at) => e.asyncFailed(at)],
    ])('%s, whatever arrives later', async (final, make) => {
      const r = await lived([make, ...OTHERS.map(([, m]) => m)], [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
      const { status, history } = await detailOf(t, r.sub.id);
      expect(status).toBe(final);
      expect(history).toHaveLength(10);
      expect(history.slice(1).map((h) => [h.from, h.to])).toEqual(OTHERS.map(() => [final, final]));
    });
  });

  it('nothing moves a record back to pending', async () => {
    const r = await lived(
      [(e, at) => e.completed(at), (e, at) => e.completed(at, { payment_status: 'unpaid' })],
      [0, 1],
    );
    expect((await detailOf(t, r.sub.id)).status).toBe('paid');
  });

  it('an event older than the one that set the status does not change it', async () => {
    // Paid at base; a deletion created before the payment arrives afterwards.
    const r = await newRecord(t);
    const e = eventsFor(r);
    const base = baseSeconds();
    await send(t, e.completed(base));
    await send(t, e.deleted(base - 10));
    const { status, history } = await detailOf(t, r.sub.id);
    expect(status).toBe('paid');
    expect(history.map((h) => [h.type, h.from, h.to])).toEqual([
      ['customer.subscription.deleted', 'paid', 'paid'],
      ['checkout.session.completed', 'pending', 'paid'],
    ]);
    // A failed renewal older than a later payment lands in its place: the record stays paid.
    await send(t, e.invoicePaid(base + 30));
    await send(t, e.invoiceFailed(base + 20));
    expect((await detailOf(t, r.sub.id)).status).toBe('paid');
  });

  it('a late event still fills the fields that are empty', async () => {
    // The subscription ended while the completed event was still being retried.
    const r = await newRecord(t);
    const e = eventsFor(r);
    const base = baseSeconds();
    await send(t, e.deleted(base + 100));
    const canceled = await subscriptionsOf(t).findOneByOrFail({ id: r.sub.id });
    expect(canceled).toMatchObject({ status: 'canceled', customerEmail: null });
    await send(t, e.completed(base));
    expect(await subscriptionsOf(t).findOneByOrFail({ id: r.sub.id })).toMatchObject({
      status: 'canceled',
      customerEmail: 'dana@example.com',
      recipientName: 'Ruth Carer',
      shippingName: 'Ruth Carer',
      canceledAt: new Date((base + 100) * 1000),
    });
    // After a final status, a newer event fills fields and is kept as one that moved nothing.
    const late = await newRecord(t);
    await send(t, eventsFor(late).expired(base));
    await send(t, eventsFor(late).completed(base + 5));
    const d = await detailOf(t, late.sub.id);
    expect(d).toMatchObject({ status: 'expired', customer: { email: 'dana@example.com' } });
    expect(d.history.map((h) => [h.from, h.to])).toEqual([
      ['pending', 'expired'],
      ['expired', 'expired'],
    ]);
  });

  /** Real lives, in the order the processor creates their events. */
  const LIVES: [string, Make[]][] = [
    [
      'paid, a renewal failed then paid, ended',
      [
        (e, at) => e.completed(at),
        (e, at) => e.invoicePaid(at),
        (e, at) => e.invoiceFailed(at),
        (e, at) => e.updated(at, 'past_due'),
        (e, at) => e.invoicePaid(at),
        (e, at) => e.updated(at, 'active'),
        (e, at) => e.deleted(at),
      ],
    ],
    [
      'a bank debit that succeeds',
      [(e, at) => e.completed(at, { payment_status: 'unpaid' }), (e, at) => e.asyncSucceeded(at)],
    ],
    [
      'a bank debit that fails',
      [(e, at) => e.completed(at, { payment_status: 'unpaid' }), (e, at) => e.asyncFailed(at)],
    ],
  ];
  const pairs = LIVES.flatMap(([life, makes]) =>
    makes.flatMap((_, i) =>
      makes
        .slice(i + 1)
        .map((__, k): [string, number, number, Make[]] => [life, i, i + 1 + k, makes]),
    ),
  );

  it.each(pairs)('%s: event %i after event %i ends as in order', async (_life, i, j, makes) => {
    const base = baseSeconds();
    const inOrder = await lived(makes, [i, j], base);
    const reversed = await lived(makes, [j, i], base);
    expect(await timelineOf(t, reversed.sub.id)).toEqual(await timelineOf(t, inOrder.sub.id));
  });

  it('20 different events for one record at once end as when they arrive in order', async () => {
    const makes: Make[] = [(e, at) => e.completed(at), (e, at) => e.invoicePaid(at)];
    for (let cycle = 0; cycle < 4; cycle++) {
      makes.push(
        (e, at) => e.invoiceFailed(at),
        (e, at) => e.updated(at, 'past_due'),
        (e, at) => e.invoicePaid(at),
        (e, at) => e.updated(at, 'active'),
      );
    }
    makes.push(
      (e, at) => e.invoiceFailed(at),
      (e, at) => e.deleted(at),
    );
    expect(makes).toHaveLength(20);
    const base = baseSeconds();
    const inOrder = await lived(
      makes,
      makes.map((_, i) => i),
      base,
    );

    const r = await newRecord(t);
    const events = makes.map((make, i) =>
      make(eventsFor(r, i % 2 ? 'older' : 'current'), base + 10 * i),
    );
    await Promise.all(events.reverse().map((event) => send(t, event)));

    const expected = await timelineOf(t, inOrder.sub.id);
    expect(expected.status).toBe('canceled');
    expect(expected.history).toHaveLength(20);
    expect(await timelineOf(t, r.sub.id)).toEqual(expected);
  });
});
