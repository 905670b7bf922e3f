import { subscriptionsOf } from '../support/checkout';
import { capturedLogs, waitForAccessLine } from '../support/captured-logs';
import { createPendingSubscription } from '../support/factories';
import { checkoutCompletedEvent, otherEvent, sign } from '../support/processor-events';
import { createTestApp, TestApp } from '../support/test-app';
import { deliver, WEBHOOK_ENV, webhookEventsOf } from '../support/webhook';

/** A signed body is the processor's word about who sent it, not about its shape. */
describe('POST /api/payment-processor/webhook with validly signed bodies of any shape', () => {
  let t: TestApp;
  const logs = capturedLogs(WEBHOOK_ENV);
  beforeAll(async () => {
    t = await createTestApp(logs.options);
  });
  afterAll(() => t.close());

  it.each([
    ['text that is not JSON', 'not json at all'],
    ['truncated JSON', '{"id":"evt_1","type":'],
    ['a bare word', 'NaN'],
  ])('answers 400 validation_failed for %s, and logs it', async (_, payload) => {
    const before = logs.lines.length;
    const res = await deliver(t, payload, sign(payload)).expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
    const lines = logs.lines.slice(before).join('');
    expect(lines).toContain('signed');
  });

  it('answers a signed event nested 2000 levels deep without a 5xx', async () => {
    const event = otherEvent('customer.updated');
    let deep: unknown = 'bottom';
    for (let i = 0; i < 2000; i++) deep = { d: deep };
    (event.data as Record<string, unknown>).object = { id: 'cus_1', deep };
    const payload = JSON.stringify(event);
    const res = await deliver(t, payload, sign(payload));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
  });

  it('never lets a __proto__ key become the prototype of the stored copy', async () => {
    const subscription = await createPendingSubscription(t.app);
    const completed = checkoutCompletedEvent(subscription.id);
    const id = completed.id as string;
    delete completed.type;
    // No `type` of its own: only a prototype taken from `__proto__` would give it one.
    const payload = JSON.stringify(completed).replace(
      /^\{/,
      '{"__proto__":{"type":"checkout.session.completed"},',
    );
    await deliver(t, payload, sign(payload)).expect(200, { received: true });
    expect(await subscriptionsOf(t).findOneByOrFail({ id: subscription.id })).toMatchObject({
      status: 'pending',
    });
    expect(await webhookEventsOf(t).findOneBy({ id })).toBeNull();
    expect(Object.getOwnPropertyNames(Object.prototype)).not.toContain('type');
  });

  it('still applies an event that carries a constructor key in its metadata', async () => {
    const subscription = await createPendingSubscription(t.app);
    const event = checkoutCompletedEvent(subscription.id);
    const session = (event.data as { object: Record<string, unknown> }).object;
    session.metadata = {
      ...(session.metadata as object),
      constructor: { prototype: { polluted: true } },
    };
    const payload = JSON.stringify(event);
    await deliver(t, payload, sign(payload)).expect(200, { received: true });
    expect(await subscriptionsOf(t).findOneByOrFail({ id: subscription.id })).toMatchObject({
      status: 'paid',
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
  // One line per event (docs/operations.md): the access line says what the event did.
  it('logs an event in one line, its access line, with its outcome and the transition', async () => {
    const subscription = await createPendingSubscription(t.app);
    const event = checkoutCompletedEvent(subscription.id);
    const payload = JSON.stringify(event);
    const linesOf = async (send: () => Promise<unknown>) => {
      const before = logs.lines.length;
      await send();
      return waitForAccessLine(logs.lines, undefined, { from: before });
    };
    const first = await linesOf(() => deliver(t, payload, sign(payload)).expect(200));
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      level: 30,
      res: { statusCode: 200 },
      event: {
        id: event.id,
        type: 'checkout.session.completed',
        outcome: 'applied',
        subscription: subscription.id,
        from: 'pending',
        to: 'paid',
      },
    });
    const again = await linesOf(() => deliver(t, payload, sign(payload)).expect(200));
    expect(again).toHaveLength(1);
    expect(again[0].event).toEqual({
      id: event.id,
      type: 'checkout.session.completed',
      outcome: 'duplicate',
    });
  });
});
