import { SubscriptionReconciler } from '../../src/subscription/lifecycle/subscription-reconciler.service';
import { processorEnv, subscriptionsOf } from '../support/checkout';
import { createPendingSubscription } from '../support/factories';
import { FakeProcessor } from '../support/fake-processor';
import { sessionEvent } from '../support/processor-events';
import { detailOf, LIFECYCLE_ENV, send } from '../support/subscriptions';
import { createTestApp, TestApp } from '../support/test-app';
import { PAID_DETAILS } from '../support/webhook';

const HOUR = 3600 * 1000;
/** The pass is run by hand here; RECONCILE_PENDING_AFTER_SECONDS stays at its default, an hour. */
const env = (fake: FakeProcessor) => ({
  ...processorEnv(fake.url),
  ...LIFECYCLE_ENV,
  RECONCILE_INTERVAL_SECONDS: '0',
});

/**
 * A pending record made `ageHours` ago (records of other specs in the run's database are younger
 * than an hour, so the passes here leave them alone), with an open session at the fake processor.
 */
async function dueRecord(t: TestApp, fake: FakeProcessor, ageHours = 2, withSession = true) {
  const createdAt = new Date(Date.now() - ageHours * HOUR);
  const sub = await createPendingSubscription(t.app, { createdAt, checkoutSessionId: null });
  if (!withSession) return { sub, sessionId: null };
  const sessionId = fake.openSession(sub.id);
  await subscriptionsOf(t).update(sub.id, { checkoutSessionId: sessionId });
  return { sub, sessionId };
}

const statusOf = async (t: TestApp, id: string) =>
  (await subscriptionsOf(t).findOneByOrFail({ id })).status;

describe('the reconcile pass', () => {
  let fake: FakeProcessor;
  let t: TestApp;
  let reconcile: () => ReturnType<SubscriptionReconciler['runOnce']>;
  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    t = await createTestApp({ env: env(fake) });
    reconcile = () => t.app.get(SubscriptionReconciler).runOnce();
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  it('makes a record whose checkout completed while the webhook was down paid, with its fields', async () => {
    const { sub, sessionId } = await dueRecord(t, fake);
    fake.completeSession(sessionId!, { subscription: 'sub_test_456' });
    const report = await reconcile();
    expect(report.changed).toContainEqual({
      id: sub.id,
      type: 'checkout.session.completed',
      from: 'pending',
      to: 'paid',
    });
    const record = await subscriptionsOf(t).findOneByOrFail({ id: sub.id });
    expect(record).toMatchObject({ ...PAID_DETAILS, shippingName: 'Ruth Carer' });
    expect(record.paidAt).toBeInstanceOf(Date);
    const { history } = await detailOf(t, sub.id);
    expect(history).toEqual([
      expect.objectContaining({
        event_id: `reconcile:${sessionId}:checkout_paid`,
        type: 'checkout.session.completed',
        from: 'pending',
        to: 'paid',
        source: 'reconcile',
      }),
    ]);
    // The processor's own event arrives when the webhook is back: recorded, moves nothing.
    await send(t, sessionEvent('checkout.session.completed', sub.id, { id: sessionId }));
    const after = await detailOf(t, sub.id);
    expect(after.status).toBe('paid');
    expect(after.history.map((h) => [h.source, h.from, h.to])).toEqual([
      ['reconcile', 'pending', 'paid'],
      ['webhook', 'paid', 'paid'],
    ]);
  });

  it('makes a record whose hosted checkout expired unfinished expired', async () => {
    const { sub, sessionId } = await dueRecord(t, fake);
    const session = fake.expireSession(sessionId!);
    await reconcile();
    const detail = await detailOf(t, sub.id);
    expect(detail.status).toBe('expired');
    expect(detail.history).toEqual([
      expect.objectContaining({
        type: 'checkout.session.expired',
        from: 'pending',
        to: 'expired',
        source: 'reconcile',
        event_created_at: new Date((session.expires_at as number) * 1000).toISOString(),
      }),
    ]);
  });

  it('stores what a completed but unpaid session collected, and leaves it pending', async () => {
    const { sub, sessionId } = await dueRecord(t, fake);
    fake.completeSession(sessionId!, { payment_status: 'unpaid' });
    await reconcile();
    expect(await subscriptionsOf(t).findOneByOrFail({ id: sub.id })).toMatchObject({
      status: 'pending',
      customerEmail: 'dana@example.com',
    });
    // Asked again later, the same answer changes nothing and adds no history.
    await subscriptionsOf(t).update(sub.id, { reconciledAt: new Date(Date.now() - HOUR) });
    await reconcile();
    expect((await detailOf(t, sub.id)).history).toHaveLength(1);
  });

  it('leaves a record the webhook already moved untouched, even mid-pass', async () => {
    const moved = await dueRecord(t, fake);
    await send(t, sessionEvent('checkout.session.expired', moved.sub.id, { id: moved.sessionId }));
    fake.completeSession(moved.sessionId!);
    // This one is moved by the webhook while the pass is asking the processor about it.
    const racing = await dueRecord(t, fake);
    fake.completeSession(racing.sessionId!);
    fake.onSessionRequest = async (req) => {
      if (!req.path.endsWith(racing.sessionId!)) return;
      await send(
        t,
        sessionEvent('checkout.session.expired', racing.sub.id, { id: racing.sessionId }),
      );
    };
    const report = await reconcile();
    fake.onSessionRequest = undefined;
    for (const r of [moved, racing]) {
      expect(report.changed.map((c) => c.id)).not.toContain(r.sub.id);
      const detail = await detailOf(t, r.sub.id);
      expect(detail.status).toBe('expired');
      expect(detail.history.map((h) => h.source)).toEqual(['webhook']);
    }
    expect(fake.retrieveRequests().some((q) => q.path.endsWith(moved.sessionId!))).toBe(false);
  });

  it('leaves open sessions and records younger than RECONCILE_PENDING_AFTER_SECONDS alone', async () => {
    const open = await dueRecord(t, fake);
    const young = await dueRecord(t, fake, 0.5);
    fake.completeSession(young.sessionId!);
    await reconcile();
    expect(await statusOf(t, open.sub.id)).toBe('pending');
    expect(await statusOf(t, young.sub.id)).toBe('pending');
    expect(fake.retrieveRequests().some((q) => q.path.endsWith(young.sessionId!))).toBe(false);
  });

  it('expires intents that never reached the processor after a day, not before', async () => {
    const old = await dueRecord(t, fake, 25, false);
    const recent = await dueRecord(t, fake, 23, false);
    const report = await reconcile();
    expect(report.changed).toContainEqual({
      id: old.sub.id,
      type: 'intent.expired',
      from: 'pending',
      to: 'expired',
    });
    expect(await statusOf(t, old.sub.id)).toBe('expired');
    expect(await statusOf(t, recent.sub.id)).toBe('pending');
    expect((await detailOf(t, old.sub.id)).history[0]).toMatchObject({
      event_created_at: new Date(old.sub.createdAt.getTime() + 24 * HOUR).toISOString(),
      source: 'reconcile',
    });
  });

  it('reports a session the processor cannot answer for, and goes on with the others', async () => {
    const unknown = await dueRecord(t, fake);
    fake.sessions.delete(unknown.sessionId!);
    const fine = await dueRecord(t, fake);
    fake.expireSession(fine.sessionId!);
    const report = await reconcile();
    expect(report.failed).toContainEqual({
      id: unknown.sub.id,
      reason: expect.stringMatching(/404 resource_missing No such checkout.session/) as string,
    });
    expect(await statusOf(t, unknown.sub.id)).toBe('pending');
    expect(await statusOf(t, fine.sub.id)).toBe('expired');
  });
});

describe('the reconcile pass on two instances at once', () => {
  let fake: FakeProcessor;
  let apps: TestApp[];
  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    apps = [await createTestApp({ env: env(fake) }), await createTestApp({ env: env(fake) })];
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await fake.stop();
  });

  it('applies each change once, and asks the processor once per record', async () => {
    const [t] = apps;
    const records = [];
    for (let i = 0; i < 6; i++) {
      const r = await dueRecord(t, fake);
      if (i % 2) fake.completeSession(r.sessionId!);
      else fake.expireSession(r.sessionId!);
      records.push(r);
    }
    const reports = await Promise.all(apps.map((a) => a.app.get(SubscriptionReconciler).runOnce()));
    const ids = records.map((r) => r.sub.id);
    const changes = reports.flatMap((r) => r.changed).filter((c) => ids.includes(c.id));
    expect(changes.map((c) => c.id).sort()).toEqual([...ids].sort());
    for (const [i, r] of records.entries()) {
      const detail = await detailOf(t, r.sub.id);
      expect(detail.status).toBe(i % 2 ? 'paid' : 'expired');
      expect(detail.history).toHaveLength(1);
      const asked = fake.retrieveRequests().filter((q) => q.path.endsWith(r.sessionId!));
      expect(asked).toHaveLength(1);
    }
  });
});

describe('the reconcile timer', () => {
  it('runs the pass every RECONCILE_INTERVAL_SECONDS and stops at shutdown', async () => {
    const fake = await new FakeProcessor().start();
    const t = await createTestApp({ env: { ...env(fake), RECONCILE_INTERVAL_SECONDS: '1' } });
    try {
      const { sub, sessionId } = await dueRecord(t, fake);
      fake.completeSession(sessionId!);
      for (let i = 0; i < 50 && (await statusOf(t, sub.id)) !== 'paid'; i++) {
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(await statusOf(t, sub.id)).toBe('paid');
    } finally {
      await t.close();
    }
    // After shutdown no pass asks the processor again.
    const asked = fake.retrieveRequests().length;
    await new Promise((r) => setTimeout(r, 2500));
    expect(fake.retrieveRequests()).toHaveLength(asked);
    await fake.stop();
  });
});
