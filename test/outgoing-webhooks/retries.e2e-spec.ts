import { DataSource } from 'typeorm';
import { closedPortUrl } from '../support/fake-processor';
import { eventually, WebhookReceiver } from '../support/webhook-receiver';
import { WebhookDeliveryService } from '../../src/outgoing-webhook/delivery/webhook-delivery.service';
import { addEndpoint, storedDelivery, WebhookWorld, webhookWorld } from './support';

/** The default schedule's steps in seconds: 5s,5m,30m,2h,5h,10h,10h. */
const STEPS = [5, 300, 1800, 7200, 18000, 36000, 36000];

describe('outgoing webhooks: success and retries', () => {
  let w: WebhookWorld;
  const receivers: WebhookReceiver[] = [];
  beforeAll(async () => {
    // Disabling after 1 day: the schedule (33 h in all) outlasts it, so its last failure disables.
    w = await webhookWorld({
      OUTGOING_WEBHOOK_TIMEOUT_SECONDS: '1',
      OUTGOING_WEBHOOK_DISABLE_AFTER_DAYS: '1',
    });
  });
  afterAll(async () => {
    await w.close();
    for (const r of receivers) await r.stop();
  });

  async function endpointAt(url?: string) {
    const receiver = await new WebhookReceiver().start();
    receivers.push(receiver);
    const endpoint = await addEndpoint(w.t, w.admin.cookie, { url: url ?? receiver.url });
    return { receiver, endpoint };
  }

  async function fire(endpointId: string): Promise<string> {
    const res = await w.t
      .http()
      .post(`/api/v1/webhook-endpoints/${endpointId}/test`)
      .set('Cookie', w.admin.cookie)
      .send({})
      .expect(202);
    return res.body.event_id as string;
  }

  const deliveryAfter = (endpointId: string, eventId: string, attempts: number) =>
    eventually(`attempt ${attempts} recorded`, async () => {
      const d = await storedDelivery(w.t, endpointId, eventId);
      return d?.attempts === attempts ? d : undefined;
    });

  it('retries a 5xx after the first step (±10 %) with the same id and body, then succeeds', async () => {
    const { receiver, endpoint } = await endpointAt();
    let calls = 0;
    receiver.answer = () => (++calls === 1 ? { status: 503, body: 'busy' } : { status: 200 });
    const eventId = await fire(endpoint.id);
    const first = await deliveryAfter(endpoint.id, eventId, 1);
    expect(first).toMatchObject({
      status: 'pending',
      last_status_code: 503,
      last_error: 'http_503',
    });
    const wait = new Date(first.next_attempt_at!).getTime() - w.clock.now().getTime();
    expect(wait).toBeGreaterThan(4_400);
    expect(wait).toBeLessThanOrEqual(5_500);
    w.clock.advance(6);
    const second = await deliveryAfter(endpoint.id, eventId, 2);
    expect(second).toMatchObject({ status: 'delivered', last_status_code: 200, last_error: null });
    expect(receiver.received).toHaveLength(2);
    const [a, b] = receiver.received;
    expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
    expect(b.body).toBe(a.body);
  });

  it('counts a timeout as a failure, with no status and the reason', async () => {
    const { receiver, endpoint } = await endpointAt();
    receiver.answer = () => 'hang';
    const eventId = await fire(endpoint.id);
    const d = await deliveryAfter(endpoint.id, eventId, 1);
    expect(d).toMatchObject({ status: 'pending', last_status_code: null });
    expect(d.last_error).toBe('timeout');
  });

  it('counts a refused connection as a failure', async () => {
    const { endpoint } = await endpointAt(`${await closedPortUrl()}/hook`);
    const eventId = await fire(endpoint.id);
    const d = await deliveryAfter(endpoint.id, eventId, 1);
    expect(d).toMatchObject({ status: 'pending', last_status_code: null });
    expect(d.last_error).toBe('connection_refused');
  });

  it('does not follow a redirect: a failure that keeps its status', async () => {
    const { receiver, endpoint } = await endpointAt();
    const elsewhere = await new WebhookReceiver().start();
    receivers.push(elsewhere);
    receiver.answer = () => ({ status: 302, location: elsewhere.url });
    const eventId = await fire(endpoint.id);
    const d = await deliveryAfter(endpoint.id, eventId, 1);
    expect(d).toMatchObject({ status: 'pending', last_status_code: 302 });
    expect(d.last_error).toBe('redirect_not_followed');
    expect(elsewhere.received).toHaveLength(0);
  });

  it('fails at once on 410 and disables the endpoint', async () => {
    const { receiver, endpoint } = await endpointAt();
    receiver.answer = () => ({ status: 410, body: 'gone' });
    const eventId = await fire(endpoint.id);
    const d = await deliveryAfter(endpoint.id, eventId, 1);
    expect(d).toMatchObject({ status: 'failed', last_status_code: 410, next_attempt_at: null });
    const got = await w.t
      .http()
      .get(`/api/v1/webhook-endpoints/${endpoint.id}`)
      .set('Cookie', w.admin.cookie)
      .expect(200);
    expect(got.body.enabled).toBe(false);
  });

  it('fails after the last step, disables a long-failing endpoint, and a retry still sends', async () => {
    const { receiver, endpoint } = await endpointAt();
    receiver.answer = () => ({ status: 500 });
    const eventId = await fire(endpoint.id);
    await deliveryAfter(endpoint.id, eventId, 1);
    for (const [i, step] of STEPS.entries()) {
      w.clock.advance(Math.ceil(step * 1.1) + 1);
      await deliveryAfter(endpoint.id, eventId, i + 2);
    }
    const last = await storedDelivery(w.t, endpoint.id, eventId);
    expect(last).toMatchObject({ status: 'failed', attempts: 8, next_attempt_at: null });
    expect(receiver.received).toHaveLength(8);
    const [row] = await w.t.app
      .get(DataSource)
      .query<{ enabled: boolean }[]>('SELECT enabled FROM webhook_endpoints WHERE id = $1', [
        endpoint.id,
      ]);
    expect(row.enabled).toBe(false);
    receiver.answer = () => ({ status: 204 });
    // Through the service: after 30 h of fake time no ID token is fresh (the API's retry: api spec).
    await w.t.app.get(WebhookDeliveryService).retry(w.fulfilmentOrgId, endpoint.id, eventId);
    const retried = await deliveryAfter(endpoint.id, eventId, 9);
    expect(retried).toMatchObject({ status: 'delivered', last_status_code: 204 });
  });
});
