import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/clock/clock';
import { SubscriptionReconciler } from '../../src/subscription/lifecycle/subscription-reconciler.service';
import { processorEnv } from '../support/checkout';
import { emptyDatabase, EmptyDatabase } from '../support/empty-database';
import { unique } from '../support/factories';
import { FakeProcessor } from '../support/fake-processor';
import {
  baseSeconds,
  eventsFor,
  LIFECYCLE_ENV,
  newRecord,
  send,
  TestRecord,
} from '../support/subscriptions';
import { createTestApp, TestApp } from '../support/test-app';
import { webhookWorld, WebhookWorld } from '../outgoing-webhooks/support';

/**
 * No way back after erasure (contract section 9): a pending record's checkout is closed first, a
 * completion that still reaches an erased record brings no personal data and loses its customer,
 * and erasure never races a payment or an export into a state the contract does not allow. Two
 * instances on an empty database of their own (the reconcile pass runs on a moved clock).
 */
describe('erasure: no way back', () => {
  let db: EmptyDatabase;
  let fake: FakeProcessor;
  let w: WebhookWorld;
  let other: TestApp;
  const sql = <T>(text: string, params: unknown[] = []) =>
    w.t.app.get(DataSource).query<T[]>(text, params);

  beforeAll(async () => {
    db = await emptyDatabase();
    fake = await new FakeProcessor().start();
    const env = {
      ...processorEnv(fake.url),
      DATABASE_URL: db.url,
      RECONCILE_INTERVAL_SECONDS: '0',
      HOUSEKEEPING_INTERVAL_SECONDS: '0',
      STRIPE_MAX_NETWORK_RETRIES: '0',
    };
    w = await webhookWorld(env);
    // The second instance: the same database and fulfilment organization, the same clock.
    other = await createTestApp({
      env: { ...LIFECYCLE_ENV, ...env, FULFILMENT_ORG_ID: w.fulfilmentOrgId },
      override: (b) => b.overrideProvider(Clock).useValue(w.clock),
    });
  });
  afterAll(async () => {
    await other?.close();
    await w?.close();
    await fake?.stop();
    await db?.stop();
  });

  const erase = (id: string, t: TestApp = w.t) =>
    t.http().post(`/api/v1/subscriptions/${id}/erase`).set('Cookie', w.admin.cookie);
  const exportOf = (id: string, t: TestApp = w.t) =>
    t.http().get(`/api/v1/subscriptions/${id}/export`).set('Cookie', w.admin.cookie);
  const rowOf = async (id: string) =>
    (
      await sql<{
        status: string;
        personal: string | null;
        customer_email_hash: string | null;
        erased_at: Date | null;
        processor_customer_id: string | null;
        processor_erasure_pending: boolean;
      }>(
        `SELECT status, personal, customer_email_hash, erased_at, processor_customer_id,
          processor_erasure_pending FROM subscriptions WHERE id = $1`,
        [id],
      )
    )[0];

  /** A pending record whose hosted session is open at the processor. */
  async function openRecord(): Promise<TestRecord> {
    const r = await newRecord(w.t);
    fake.openSession(r.sub.id, r.sessionId);
    return r;
  }

  it('expires the open checkout of a pending record before erasing it', async () => {
    const r = await openRecord();
    const res = await erase(r.sub.id).expect(200);
    expect(res.body).toMatchObject({ status: 'pending', erased_at: expect.any(String) });
    expect(fake.sessionExpiries()).toContain(r.sessionId);
    expect(fake.sessions.get(r.sessionId)?.status).toBe('expired');
    // The hosted page's Pay can no longer complete it.
    expect(fake.pay(r.sessionId)).toBeUndefined();
  });

  it('refuses (409) a pending record whose checkout already completed: nothing erased', async () => {
    const r = await openRecord();
    fake.completeSession(r.sessionId); // paid on the page; the webhook not here yet
    const res = await erase(r.sub.id).expect(409);
    expect(res.body).toMatchObject({ code: 'conflict' });
    expect(res.body.detail).toMatch(/checkout was completed at the processor/);
    expect(await rowOf(r.sub.id)).toMatchObject({ erased_at: null, personal: expect.any(String) });
  });

  it('refuses (502) while the processor cannot be reached to close the checkout', async () => {
    const r = await openRecord();
    fake.expireMode = 'down';
    try {
      const res = await erase(r.sub.id).expect(502);
      expect(res.body).toMatchObject({ code: 'processor_unavailable' });
      expect(res.body.detail).toMatch(/nothing was erased/);
    } finally {
      fake.expireMode = 'ok';
    }
    expect((await rowOf(r.sub.id)).erased_at).toBeNull();
  });

  it('erases twice with the same answer, the processor not asked again (even when down)', async () => {
    const r = await openRecord();
    const first = await erase(r.sub.id).expect(200);
    fake.expireMode = 'down';
    try {
      const again = await erase(r.sub.id).expect(200);
      expect(again.body).toEqual(first.body);
    } finally {
      fake.expireMode = 'ok';
    }
  });

  it('refuses any field in the body (400) and takes an empty or absent one', async () => {
    const r = await openRecord();
    const refused = await erase(r.sub.id).send({ reason: 'customer asked' }).expect(400);
    expect(refused.body).toMatchObject({ code: 'validation_failed' });
    expect((await rowOf(r.sub.id)).erased_at).toBeNull();
    await erase(r.sub.id).send({}).expect(200);
    await erase(r.sub.id).expect(200);
  });

  it('a completion that still reaches an erased record stores no personal data and loses its customer; then 409', async () => {
    // Erased before the processor knew its session (the checkout was still being opened).
    const r = await newRecord(w.t);
    await erase(r.sub.id).expect(200);
    const customer = unique('cus_e2e');
    await send(other, eventsFor(r).completed(baseSeconds(), { customer }));
    expect(await rowOf(r.sub.id)).toEqual({
      status: 'paid',
      personal: null,
      customer_email_hash: null,
      erased_at: expect.any(Date),
      processor_customer_id: customer,
      processor_erasure_pending: false,
    });
    expect(fake.customerDeletions()).toContain(customer);
    // Billed again: erasing it once more is a conflict, not "already erased".
    const again = await erase(r.sub.id).expect(409);
    expect(again.body.detail).toMatch(/still billed/);
  });

  // Whichever order wins a round, its end state is checked; each order forced alone is a test
  // above (409 after a completed checkout; nothing back after an erasure).
  it('erase on one instance and Pay with its webhook on the other end in an allowed state', async () => {
    for (let round = 0; round < 8; round++) {
      const r = await openRecord();
      const customer = unique('cus_race');
      const pay = async () => {
        await new Promise((resolve) => setTimeout(resolve, round % 4));
        if (!fake.pay(r.sessionId, { customer })) return false;
        await send(other, eventsFor(r).completed(baseSeconds() + round, { customer }));
        return true;
      };
      const [erased, paid] = await Promise.all([erase(r.sub.id), pay()]);
      const row = await rowOf(r.sub.id);
      if (erased.status === 200) {
        // Closed first: Pay found the page expired; nothing came back.
        expect(paid).toBe(false);
        expect(row).toMatchObject({
          status: 'pending',
          personal: null,
          erased_at: expect.any(Date),
        });
      } else {
        // Paid first: the erasure refused, the record and its data stand.
        expect(erased.status).toBe(409);
        expect(paid).toBe(true);
        const settled = await rowOf(r.sub.id);
        expect(settled).toMatchObject({ status: 'paid', erased_at: null });
        expect(settled.personal).not.toBeNull();
      }
      // Never both: an erased record with a live customer at the processor.
      if (row.erased_at && row.processor_customer_id) {
        expect(fake.customerDeletions()).toContain(row.processor_customer_id);
      }
    }
  });

  it('an export and an erasure of one record on two instances never interleave', async () => {
    for (let round = 0; round < 6; round++) {
      const r = await newRecord(w.t, { customerEmail: `${unique('race')}@example.com` });
      const e = eventsFor(r);
      await send(w.t, e.completed(baseSeconds()));
      await send(w.t, e.deleted(baseSeconds() + 1));
      const [exported] = await Promise.all([
        exportOf(r.sub.id, round % 2 ? w.t : other).expect(200),
        erase(r.sub.id, round % 2 ? other : w.t).expect(200),
      ]);
      const events = await sql<{ seq: string; action: string }>(
        `SELECT seq, action FROM audit_events WHERE subject_id = $1
          AND action IN ('subscription.exported', 'subscription.erased') ORDER BY seq`,
        [r.sub.id],
      );
      const actions = events.map((ev) => ev.action);
      const sub = exported.body.subscription as { erased_at: string | null; customer: object };
      if (sub.erased_at === null) {
        // It showed the data: it finished before the erasure began.
        expect(actions).toEqual(['subscription.exported', 'subscription.erased']);
        expect(sub.customer).toMatchObject({ email: expect.any(String) });
      } else {
        expect(actions).toEqual(['subscription.erased', 'subscription.exported']);
        expect(sub.customer).toEqual({ email: null, name: null, phone: null });
      }
    }
  });

  // Last: it moves the clock past the age a signed processor event may have.
  it('the customer such a completion brings is deleted by the reconcile pass when the processor was down', async () => {
    const r = await newRecord(w.t);
    await erase(r.sub.id).expect(200); // the processor does not know the session: nothing to close
    // The reconcile pass finds the session completed, with a customer, at the processor.
    fake.openSession(r.sub.id, r.sessionId);
    const done = fake.completeSession(r.sessionId);
    fake.customersMode = 'down';
    w.clock.advance(3600);
    const reconcile = () => w.t.app.get(SubscriptionReconciler).runOnce();
    const first = await reconcile();
    expect(first.changed).toContainEqual(expect.objectContaining({ id: r.sub.id, to: 'paid' }));
    expect(await rowOf(r.sub.id)).toMatchObject({
      status: 'paid',
      personal: null,
      processor_customer_id: done.customer,
      processor_erasure_pending: true,
    });
    fake.customersMode = 'ok';
    w.clock.advance(61);
    expect((await reconcile()).erasures).toMatchObject({ deleted: 1, failed: 0 });
    expect((await rowOf(r.sub.id)).processor_erasure_pending).toBe(false);
  });
});
