import { DataSource } from 'typeorm';
import { SubscriptionReconciler } from '../../src/subscription/lifecycle/subscription-reconciler.service';
import { signIn } from '../support/auth';
import { openedBody, processorEnv } from '../support/checkout';
import { emptyDatabase, EmptyDatabase } from '../support/empty-database';
import { createOrg, unique } from '../support/factories';
import { FakeProcessor } from '../support/fake-processor';
import { baseSeconds, eventsFor, newRecord, send } from '../support/subscriptions';
import { eventually, verifies } from '../support/webhook-receiver';
import {
  addEndpoint,
  storedDelivery,
  webhookWorld,
  WebhookWorld,
} from '../outgoing-webhooks/support';

/**
 * Forgotten on request (contract section 9). On an empty database of its own: the reconcile pass
 * run here, on a moved clock, must not reach another spec's records (nor theirs these).
 */
describe('erasure: POST /api/v1/subscriptions/{id}/erase', () => {
  let db: EmptyDatabase;
  let fake: FakeProcessor;
  let w: WebhookWorld;
  let endpoint: { id: string; secret: string };
  const sql = <T>(text: string, params: unknown[] = []) =>
    w.t.app.get(DataSource).query<T[]>(text, params);

  beforeAll(async () => {
    db = await emptyDatabase();
    fake = await new FakeProcessor().start();
    w = await webhookWorld({
      ...processorEnv(fake.url),
      DATABASE_URL: db.url,
      RECONCILE_INTERVAL_SECONDS: '0',
      HOUSEKEEPING_INTERVAL_SECONDS: '0',
      STRIPE_MAX_NETWORK_RETRIES: '0',
    });
    endpoint = await addEndpoint(w.t, w.admin.cookie, { url: w.receiver.url });
    // The record's own events fail (kept pending for a later attempt); subscription.erased is taken.
    w.receiver.answer = (d) => ({ status: d.json.type === 'subscription.erased' ? 204 : 500 });
  });
  afterAll(async () => {
    await w?.close();
    await fake?.stop();
    await db?.stop();
  });

  const erase = (id: string, cookie = w.admin.cookie) =>
    w.t.http().post(`/api/v1/subscriptions/${id}/erase`).set('Cookie', cookie);

  /** A record paid with its own processor customer, then canceled by the processor. */
  async function canceledRecord() {
    const r = await newRecord(w.t);
    const customer = unique('cus_e2e');
    const e = eventsFor(r);
    await send(w.t, e.completed(baseSeconds() + 1, { customer }));
    await send(w.t, e.deleted(baseSeconds() + 2));
    return { id: r.sub.id, customer };
  }

  const eventsOf = (id: string) =>
    sql<{ id: string; payload: string; data_key_id: string | null }>(
      'SELECT id, payload, data_key_id FROM outgoing_events WHERE data_key_id = $1',
      [id],
    );

  it('refuses a record still billed (paid): 409 conflict, nothing erased', async () => {
    const r = await newRecord(w.t, { customerEmail: 'kept@example.com' });
    await send(w.t, eventsFor(r).completed(baseSeconds()));
    const res = await erase(r.sub.id).expect(409);
    expect(res.body).toMatchObject({ code: 'conflict' });
    expect(res.body.detail).toMatch(/cancel it at the processor first/);
    const [row] = await sql<{ personal: string | null; erased_at: Date | null }>(
      'SELECT personal, erased_at FROM subscriptions WHERE id = $1',
      [r.sub.id],
    );
    expect(row).toMatchObject({ erased_at: null, personal: expect.stringMatching(/^s1\./) });
  });

  it('destroys the key, clears the fields, fails pending deliveries, tells subscription.erased, deletes the customer', async () => {
    const { id, customer } = await canceledRecord();
    const events = await eventsOf(id);
    expect(events.length).toBeGreaterThanOrEqual(2); // paid, canceled: sealed under the key
    // Each was tried once and waits for its next attempt.
    for (const e of events) {
      await eventually('attempted', async () => {
        const d = await storedDelivery(w.t, endpoint.id, e.id);
        return d.attempts >= 1 && d.status === 'pending';
      });
    }

    const res = await erase(id).expect(200);
    const erasedAt = w.clock.now().toISOString();
    expect(res.body).toMatchObject({
      id,
      status: 'canceled',
      customer: { email: null, name: null, phone: null },
      recipient: { name: null, living_situation: null, primary_concern: null, zip: null },
      shipping: { name: null, address: null },
      processor: { customer_id: customer },
      erased_at: erasedAt,
    });

    const [row] = await sql<Record<string, unknown>>(
      `SELECT personal, email_hash, customer_email_hash, erased_at, processor_erasure_pending
        FROM subscriptions WHERE id = $1`,
      [id],
    );
    expect(row).toEqual({
      personal: null,
      email_hash: null,
      customer_email_hash: null,
      erased_at: new Date(erasedAt),
      processor_erasure_pending: false,
    });
    expect(await sql('SELECT id FROM data_keys WHERE id = $1', [id])).toEqual([]);
    await expect(openedBody(w.t.app, events[0])).rejects.toThrow(/gone/);

    for (const e of events) {
      const d = await storedDelivery(w.t, endpoint.id, e.id);
      expect(d).toMatchObject({ status: 'failed', last_error: 'erased', next_attempt_at: null });
    }
    await w.t
      .http()
      .post(`/api/v1/webhook-endpoints/${endpoint.id}/deliveries/${events[0].id}/retry`)
      .set('Cookie', w.admin.cookie)
      .expect(409);

    const told = await eventually('subscription.erased received', () =>
      w.receiver.of('subscription.erased').find((d) => d.json.data.id === id),
    );
    expect(told.json.data).toEqual({ id, erased_at: erasedAt });
    expect(verifies(endpoint.secret, told)).toBe(true);
    expect(fake.customerDeletions()).toContain(customer);
  });

  it('erasing twice answers the same record and tells the endpoints once', async () => {
    const { id, customer } = await canceledRecord();
    const first = await erase(id).expect(200);
    w.clock.advance(5);
    const second = await erase(id).expect(200);
    expect(second.body).toEqual(first.body);
    const told = await sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM outgoing_events WHERE type = 'subscription.erased'
        AND subject_id = $1`,
      [id],
    );
    expect(told).toEqual([{ n: 1 }]);
    expect(fake.customerDeletions().filter((c) => c === customer)).toHaveLength(1);
  });

  it('with the processor down the erasure stands; the reconcile pass deletes the customer later', async () => {
    const { id, customer } = await canceledRecord();
    fake.customersMode = 'down';
    const res = await erase(id).expect(200);
    expect(res.body.erased_at).not.toBeNull();
    expect(fake.customerDeletions()).toContain(customer); // asked, and refused
    const pending = () =>
      sql<{ p: boolean }>(
        'SELECT processor_erasure_pending AS p FROM subscriptions WHERE id = $1',
        [id],
      );
    expect(await pending()).toEqual([{ p: true }]);

    fake.customersMode = 'ok';
    const reconcile = () => w.t.app.get(SubscriptionReconciler).runOnce();
    // Just asked: the pass waits its minute before asking again.
    expect((await reconcile()).erasures).toBeUndefined();
    w.clock.advance(61);
    expect((await reconcile()).erasures).toEqual({ asked: 1, deleted: 1, failed: 0 });
    expect(await pending()).toEqual([{ p: false }]);
    expect(fake.customerDeletions().filter((c) => c === customer)).toHaveLength(2);
    w.clock.advance(61);
    expect((await reconcile()).erasures).toBeUndefined();
  });

  it('is for admins of the fulfilment organization only: a member and another org admin get 403', async () => {
    const { id } = await canceledRecord();
    const member = await signIn(w.t, { orgId: w.fulfilmentOrgId, role: 'member' });
    const otherAdmin = await signIn(w.t, { orgId: (await createOrg(w.t.app)).id, role: 'admin' });
    for (const who of [member, otherAdmin]) {
      await erase(id, who.cookie).expect(403);
      await w.t
        .http()
        .get(`/api/v1/subscriptions/${id}/export`)
        .set('Cookie', who.cookie)
        .expect(403);
    }
    const [row] = await sql<{ erased_at: Date | null }>(
      'SELECT erased_at FROM subscriptions WHERE id = $1',
      [id],
    );
    expect(row.erased_at).toBeNull();
  });

  it('answers 404 for a record that does not exist', async () => {
    await erase('7a0e3f8e-0000-4000-8000-000000000000').expect(404);
    await erase('not-a-uuid').expect(404);
  });
});
