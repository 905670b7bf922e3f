import { DataSource } from 'typeorm';
import { Housekeeping } from '../../src/database/housekeeping.service';
import { signIn } from '../support/auth';
import { SubscriptionReconciler } from '../../src/subscription/lifecycle/subscription-reconciler.service';
import { SubscriptionRecordDto } from '../../src/subscription/subscription-view.dto';
import { openedBody, processorEnv, recordOf, subscriptionsOf } from '../support/checkout';
import { deviceKeyPair } from '../support/devices';
import { createPendingSubscription, unique } from '../support/factories';
import { FakeProcessor } from '../support/fake-processor';
import { baseSeconds, eventsFor, newRecord, send } from '../support/subscriptions';
import { eventually, verifies } from '../support/webhook-receiver';
import { addEndpoint, deliveriesOf, WebhookWorld, webhookWorld } from './support';

describe('outgoing webhooks: every event type, signed, to the endpoints that may see it', () => {
  let w: WebhookWorld;
  let fake: FakeProcessor;
  let endpoint: { id: string; secret: string };
  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    w = await webhookWorld({ ...processorEnv(fake.url), RECONCILE_INTERVAL_SECONDS: '0' });
    endpoint = await addEndpoint(w.t, w.admin.cookie, { url: w.receiver.url });
  });
  afterAll(async () => {
    await w.close();
    await fake.stop();
  });

  const received = (type: string, match: (data: Record<string, unknown>) => boolean) =>
    eventually(`${type} received`, () => w.receiver.of(type).find((d) => match(d.json.data)));

  it('sends subscription.created for a checkout, signed in the Standard Webhooks format', async () => {
    const res = await w.t.http().post('/api/lease/checkout').send({ email: 'a@example.com' });
    expect(res.status).toBe(200);
    const id = res.body.subscription_id as string;
    const d = await received('subscription.created', (data) => data.id === id);
    expect(d.json.data).toMatchObject({ id, status: 'pending' });
    expect(Date.parse(d.json.timestamp)).not.toBeNaN();
    expect(d.headers['content-type']).toBe('application/json');
    expect(d.headers['user-agent']).toMatch(/^device-care-service\//);
    expect(d.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(verifies(endpoint.secret, d)).toBe(true);
    const listed = await eventually('recorded as delivered', async () =>
      (await deliveriesOf(w.t, w.admin.cookie, endpoint.id)).find(
        (x) => x.event_id === d.headers['webhook-id'] && x.status === 'delivered',
      ),
    );
    expect(listed).toMatchObject({
      type: 'subscription.created',
      status: 'delivered',
      attempts: 1,
      last_status_code: 204,
    });
  });

  it('stores subscription.created with its record: the record as stored, one delivery per subscriber', async () => {
    const cookie = w.admin.cookie;
    const paidOnly = await addEndpoint(w.t, cookie, {
      url: w.receiver.url,
      event_types: ['subscription.paid'],
    });
    const disabled = await addEndpoint(w.t, cookie, { url: w.receiver.url });
    const endpoints = `/api/v1/webhook-endpoints`;
    await w.t
      .http()
      .patch(`${endpoints}/${disabled.id}`)
      .set('Cookie', cookie)
      .send({ enabled: false })
      .expect(200);
    try {
      const res = await w.t
        .http()
        .post('/api/lease/checkout')
        .send({ name: 'Dana Carer', email: 'c@example.com', coupon: 'beta' })
        .expect(200);
      const id = res.body.subscription_id as string;
      const db = w.t.app.get(DataSource);
      const events = await db.query<
        { id: string; org_id: string; payload: string; data_key_id: string; created_at: Date }[]
      >(
        `SELECT id, org_id, payload, data_key_id, created_at FROM outgoing_events
         WHERE type = 'subscription.created' AND data_key_id = $1`,
        [id],
      );
      expect(events).toHaveLength(1);
      const [event] = events;
      const stored = await recordOf(w.t, id);
      const asCreated = { ...stored, checkoutSessionId: null }; // the session id came after
      expect(await openedBody(w.t.app, event)).toEqual({
        type: 'subscription.created',
        timestamp: w.clock.now().toISOString(),
        data: SubscriptionRecordDto.from(asCreated),
      });
      expect(event.org_id).toBe(w.fulfilmentOrgId);
      expect(event.created_at).toEqual(stored.createdAt);
      const deliveries = await db.query<{ endpoint_id: string; status: string }[]>(
        'SELECT endpoint_id, status FROM webhook_deliveries WHERE event_id = $1',
        [event.id],
      );
      expect(deliveries.map((d) => d.endpoint_id)).toEqual([endpoint.id]);
      await received('subscription.created', (data) => data.id === id);
    } finally {
      for (const gone of [paidOnly, disabled]) {
        await w.t.http().delete(`${endpoints}/${gone.id}`).set('Cookie', cookie).expect(204);
      }
    }
  });

  it('sends one event per status the record takes: paid, past_due, paid, canceled', async () => {
    const r = await newRecord(w.t);
    const e = eventsFor(r);
    const base = baseSeconds();
    await send(w.t, e.completed(base + 1));
    await send(w.t, e.invoiceFailed(base + 2));
    await send(w.t, e.invoicePaid(base + 3));
    await send(w.t, e.deleted(base + 4));
    const mine = (type: string) => w.receiver.of(type).filter((d) => d.json.data.id === r.sub.id);
    await eventually('canceled', () => mine('subscription.canceled').length === 1);
    await eventually('both paid', () => mine('subscription.paid').length === 2);
    expect(mine('subscription.past_due')).toHaveLength(1);
    expect(mine('subscription.canceled')[0].json.data).toMatchObject({ status: 'canceled' });
    expect(mine('subscription.created')).toHaveLength(0); // made by the factory, not a checkout
  });

  it('sends subscription.payment_failed and subscription.expired', async () => {
    const failed = await newRecord(w.t);
    const expired = await newRecord(w.t);
    await send(w.t, eventsFor(failed).asyncFailed(baseSeconds()));
    await send(w.t, eventsFor(expired).expired(baseSeconds()));
    await received('subscription.payment_failed', (data) => data.id === failed.sub.id);
    await received('subscription.expired', (data) => data.id === expired.sub.id);
  });

  it('sends device.registered, device.key_rotated and device.deactivated to the device org', async () => {
    const device_id = unique('hub');
    const cookie = w.admin.cookie;
    const body = { device_id, model: 'hub-2', provider: 'acme' };
    await w.t.http().post('/api/v1/devices').set('Cookie', cookie).send(body).expect(201);
    await w.t
      .http()
      .put(`/api/v1/devices/${device_id}/public-key`)
      .set('Cookie', cookie)
      .send({ public_key: deviceKeyPair().jwk })
      .expect(200);
    await w.t.http().delete(`/api/v1/devices/${device_id}`).set('Cookie', cookie).expect(204);
    const data = { ...body, org_id: w.fulfilmentOrgId };
    const reg = await received('device.registered', (d) => d.device_id === device_id);
    expect(reg.json.data).toEqual({ ...data, status: 'active' });
    await received('device.key_rotated', (d) => d.device_id === device_id);
    const gone = await received('device.deactivated', (d) => d.device_id === device_id);
    expect(gone.json.data).toEqual({ ...data, status: 'deactivated' });
  });

  it("keeps subscriptions to the fulfilment org and devices to their own org's endpoints", async () => {
    const other = await signIn(w.t, { role: 'admin' });
    const refused = await w.t
      .http()
      .post('/api/v1/webhook-endpoints')
      .set('Cookie', other.cookie)
      .send({ url: w.receiver.url, event_types: ['subscription.paid'] });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('validation_failed');
    const theirs = await addEndpoint(w.t, other.cookie, { url: w.receiver.url });
    const device_id = unique('theirs');
    await w.t
      .http()
      .post('/api/v1/devices')
      .set('Cookie', other.cookie)
      .send({ device_id, model: 'hub-2', provider: 'acme' })
      .expect(201);
    const r = await newRecord(w.t);
    await send(w.t, eventsFor(r).completed(baseSeconds()));
    await received('subscription.paid', (d) => d.id === r.sub.id);
    const d = await received('device.registered', (x) => x.device_id === device_id);
    expect(verifies(theirs.secret, d)).toBe(true);
    expect(verifies(endpoint.secret, d)).toBe(false);
    const theirTypes = (await deliveriesOf(w.t, other.cookie, theirs.id)).map((x) => x.type);
    expect(theirTypes).toEqual(['device.registered']);
    const ours = await deliveriesOf(w.t, w.admin.cookie, endpoint.id);
    expect(ours.map((x) => x.event_id)).not.toContain(d.headers['webhook-id']);
  });

  it('sends the status the reconcile pass gives a record, as the webhook would', async () => {
    const createdAt = new Date(w.clock.now().getTime() - 2 * 3600 * 1000);
    const sub = await createPendingSubscription(w.t.app, { createdAt, checkoutSessionId: null });
    const sessionId = fake.openSession(sub.id);
    await subscriptionsOf(w.t).update(sub.id, { checkoutSessionId: sessionId });
    fake.completeSession(sessionId, { subscription: unique('sub_test') });
    await w.t.app.get(SubscriptionReconciler).runOnce();
    const d = await received('subscription.paid', (data) => data.id === sub.id);
    expect(d.json.data).toMatchObject({ status: 'paid' });
  });

  it('shows deliveries in /metrics', async () => {
    const res = await w.t.http().get('/metrics').expect(200);
    expect(res.text).toMatch(/^outgoing_webhook_deliveries_total\{outcome="delivered"\} [1-9]/m);
    expect(res.text).toMatch(/^outgoing_webhook_deliveries_pending \d+/m);
    expect(res.text).toMatch(/^outgoing_webhook_oldest_pending_seconds [\d.]+/m);
  });

  it('lets housekeeping remove delivered events after 30 days, and only those', async () => {
    // Only this file's events: the embedded database is shared by every spec of the run.
    const ours = [...new Set(w.receiver.received.map((d) => String(d.headers['webhook-id'])))];
    const db = w.t.app.get(DataSource);
    const count = async (where: string) =>
      Number(
        (
          await db.query<{ n: string }[]>(
            `SELECT count(*) AS n FROM outgoing_events WHERE id = ANY($1) AND ${where}`,
            [ours],
          )
        )[0].n,
      );
    await eventually('all settled', async () => (await count('settled_at IS NULL')) === 0);
    expect(await count('settled_at IS NOT NULL')).toBe(ours.length);
    w.clock.advance(29 * 86_400);
    await w.t.app.get(Housekeeping).runOnce();
    expect(await count('true')).toBe(ours.length);
    w.clock.advance(2 * 86_400);
    const { deleted } = await w.t.app.get(Housekeeping).runOnce();
    expect(deleted.outgoing_events).toBeGreaterThanOrEqual(ours.length);
    expect(await count('true')).toBe(0);
  });
});
