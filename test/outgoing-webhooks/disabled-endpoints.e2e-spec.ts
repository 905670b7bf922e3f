import { DataSource } from 'typeorm';
import { eventually, WebhookReceiver } from '../support/webhook-receiver';
import {
  addEndpoint,
  deliveriesOf,
  HeldReceiver,
  recordDeviceEvent,
  storedDelivery,
  WebhookWorld,
  webhookWorld,
} from './support';

describe('outgoing webhooks: a disabled endpoint is sent nothing; a retry never runs beside an attempt', () => {
  let w: WebhookWorld;
  const stops: { stop(): Promise<void> }[] = [];
  beforeAll(async () => {
    w = await webhookWorld();
  });
  afterAll(async () => {
    await w.close();
    for (const s of stops) await s.stop();
  });

  const api = (method: 'post' | 'patch', path: string) =>
    w.t.http()[method](`/api/v1/webhook-endpoints${path}`).set('Cookie', w.admin.cookie);
  const receiverFor = async () => {
    const receiver = await new WebhookReceiver().start();
    stops.push(receiver);
    const endpoint = await addEndpoint(w.t, w.admin.cookie, { url: receiver.url });
    return { receiver, endpoint };
  };
  const testCall = async (endpointId: string) =>
    (await api('post', `/${endpointId}/test`).send({}).expect(202)).body.event_id as string;
  const ids = (r: WebhookReceiver, type: string) => r.of(type).map((d) => d.headers['webhook-id']);

  it('fails what was pending on disabling, sends tests only while disabled, and only new events after enabling', async () => {
    const { receiver, endpoint } = await receiverFor();
    receiver.answer = () => ({ status: 500, body: 'down' });
    const old = await recordDeviceEvent(w.t, w.fulfilmentOrgId);
    await eventually(
      'first attempt',
      async () => (await storedDelivery(w.t, endpoint.id, old))?.attempts === 1,
    );
    await api('patch', `/${endpoint.id}`).send({ enabled: false }).expect(200);
    expect(await storedDelivery(w.t, endpoint.id, old)).toMatchObject({
      status: 'failed',
      attempts: 1,
      next_attempt_at: null,
    });
    const whileDisabled = await recordDeviceEvent(w.t, w.fulfilmentOrgId);
    receiver.answer = () => ({ status: 204 });
    const test = await testCall(endpoint.id);
    await eventually('the test call while disabled', () =>
      ids(receiver, 'webhook.test').includes(test),
    );
    // Its schedule would have sent the old one again by now, had it stayed pending.
    w.clock.advance(600);
    await api('patch', `/${endpoint.id}`).send({ enabled: true }).expect(200);
    const fresh = await recordDeviceEvent(w.t, w.fulfilmentOrgId);
    await eventually('the new event', () => ids(receiver, 'device.registered').includes(fresh));
    expect(ids(receiver, 'device.registered')).toEqual([old, fresh]);
    const listed = (await deliveriesOf(w.t, w.admin.cookie, endpoint.id)).map((d) => d.event_id);
    expect(listed).not.toContain(whileDisabled);
    // Enabled again, a retry resends the old one.
    await api('post', `/${endpoint.id}/deliveries/${old}/retry`).send({}).expect(202);
    await eventually('the old one resent', () => ids(receiver, 'device.registered').length === 3);
    await eventually(
      'recorded',
      async () => (await storedDelivery(w.t, endpoint.id, old))?.status === 'delivered',
    );
  });

  it('leaves a delivery committed beside the disabling untouched, refuses its retry (409), and fails it on enabling', async () => {
    const { receiver, endpoint } = await receiverFor();
    const db = w.t.app.get(DataSource);
    // The change's transaction saw the endpoint enabled; the disabling commits with it.
    const stale = await db.transaction(async (m) => {
      const id = await recordDeviceEvent(w.t, w.fulfilmentOrgId, m);
      await m.query('UPDATE webhook_endpoints SET enabled = false WHERE id = $1', [endpoint.id]);
      return id;
    });
    // A test call due after it is sent: the worker took due deliveries in order and skipped it.
    const test = await testCall(endpoint.id);
    await eventually('the test call', () => ids(receiver, 'webhook.test').includes(test));
    expect(receiver.of('device.registered')).toHaveLength(0);
    expect(await storedDelivery(w.t, endpoint.id, stale)).toMatchObject({
      status: 'pending',
      attempts: 0,
    });
    const refused = await api('post', `/${endpoint.id}/deliveries/${stale}/retry`).send({});
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ code: 'conflict' });
    expect(refused.body.detail).toMatch(/disabled/);
    await api('patch', `/${endpoint.id}`).send({ enabled: true }).expect(200);
    expect(await storedDelivery(w.t, endpoint.id, stale)).toMatchObject({
      status: 'failed',
      attempts: 0,
      last_error: 'endpoint_disabled',
    });
    const after = await testCall(endpoint.id);
    await eventually('a test call after enabling', () =>
      ids(receiver, 'webhook.test').includes(after),
    );
    expect(receiver.of('device.registered')).toHaveLength(0);
  });

  it('makes a retry that comes during an attempt right after it, never beside it', async () => {
    const receiver = await new HeldReceiver().start();
    stops.push(receiver);
    const endpoint = await addEndpoint(w.t, w.admin.cookie, { url: receiver.url });
    const eventId = await recordDeviceEvent(w.t, w.fulfilmentOrgId);
    const retry = () =>
      api('post', `/${endpoint.id}/deliveries/${eventId}/retry`).send({}).expect(202);
    const first = await receiver.next();
    expect(first.webhookId).toBe(eventId);
    // The lease covers the attempt's whole deadline (OUTGOING_WEBHOOK_TIMEOUT_SECONDS, 15).
    const [lease] = await w.t.app
      .get(DataSource)
      .query<{ claimed_until: Date }[]>(
        'SELECT claimed_until FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2',
        [endpoint.id, eventId],
      );
    expect(new Date(lease.claimed_until).getTime() - w.clock.now().getTime()).toBeGreaterThan(
      15_000,
    );
    await retry();
    await retry();
    first.answer(500);
    // No clock moved: the schedule's 5 s step is not due, only the retry is.
    const second = await receiver.next();
    expect(await storedDelivery(w.t, endpoint.id, eventId)).toMatchObject({
      status: 'pending',
      attempts: 1,
      last_status_code: 500,
    });
    second.answer(204);
    await eventually(
      'delivered',
      async () => (await storedDelivery(w.t, endpoint.id, eventId))?.status === 'delivered',
    );
    // A retry during an attempt that succeeds is a resend, right after it.
    await retry();
    const third = await receiver.next();
    await retry();
    third.answer(204);
    (await receiver.next()).answer(204);
    const done = await eventually('four attempts recorded', async () => {
      const d = await storedDelivery(w.t, endpoint.id, eventId);
      return d?.attempts === 4 && d.status === 'delivered' ? d : undefined;
    });
    expect(done).toMatchObject({ last_status_code: 204, next_attempt_at: null });
    expect(receiver.received).toBe(4);
    expect(receiver.maxInFlight).toBe(1);
  });
});
