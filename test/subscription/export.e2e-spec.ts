import { processorEnv } from '../support/checkout';
import { FakeProcessor } from '../support/fake-processor';
import { baseSeconds, eventsFor, newRecord, send } from '../support/subscriptions';
import { eventually } from '../support/webhook-receiver';
import { addEndpoint, webhookWorld, WebhookWorld } from '../outgoing-webhooks/support';

interface Exported {
  subscription: Record<string, unknown> & { history: { type: string; to: string }[] };
  deliveries: Record<string, unknown>[];
  access: { action: string; actor: { type: string }; subject: { id: string } }[];
}

/** Told what is held (contract section 9): the record, its history, who received its events. */
describe('export: GET /api/v1/subscriptions/{id}/export', () => {
  let fake: FakeProcessor;
  let w: WebhookWorld;
  let endpoint: { id: string };
  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    w = await webhookWorld({ ...processorEnv(fake.url), RECONCILE_INTERVAL_SECONDS: '0' });
    endpoint = await addEndpoint(w.t, w.admin.cookie, { url: w.receiver.url });
  });
  afterAll(async () => {
    await w.close();
    await fake.stop();
  });

  const exportOf = async (id: string): Promise<Exported> =>
    (
      await w.t
        .http()
        .get(`/api/v1/subscriptions/${id}/export`)
        .set('Cookie', w.admin.cookie)
        .expect(200)
    ).body as Exported;
  const deliveredIds = (id: string) =>
    w.receiver.received.filter((d) => d.json.data.id === id).map((d) => d.headers['webhook-id']);

  it('holds the record with its personal fields and history, and the deliveries made of its events', async () => {
    const r = await newRecord(w.t, { customerEmail: 'held@example.com' });
    await send(w.t, eventsFor(r).completed(baseSeconds()));
    const [eventId] = await eventually('subscription.paid delivered', () => {
      const ids = deliveredIds(r.sub.id);
      return ids.length === 1 && ids;
    });
    const held = await eventually('the delivery recorded', async () => {
      const e = await exportOf(r.sub.id);
      return e.deliveries.length === 1 && e;
    });
    expect(held.subscription).toMatchObject({
      id: r.sub.id,
      status: 'paid',
      customer: { email: 'held@example.com' },
      erased_at: null,
    });
    expect(held.subscription.history.map((h) => [h.type, h.to])).toEqual([
      ['checkout.session.completed', 'paid'],
    ]);
    expect(held.deliveries).toEqual([
      {
        endpoint_id: endpoint.id,
        url: w.receiver.url,
        event_id: eventId,
        type: 'subscription.paid',
        delivered_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    // Who looked: each export (this one included) and a view, the admin as actor.
    expect(held.access.at(-1)).toMatchObject({
      action: 'subscription.exported',
      actor: { type: 'user' },
      subject: { id: r.sub.id },
    });
    await w.t
      .http()
      .get(`/api/v1/subscriptions/${r.sub.id}`)
      .set('Cookie', w.admin.cookie)
      .expect(200);
    const again = await exportOf(r.sub.id);
    expect(again.access.slice(-2).map((a) => a.action)).toEqual([
      'subscription.viewed',
      'subscription.exported',
    ]);
  });

  it('after erasure: no personal fields, and the subscription.erased delivery listed too', async () => {
    const r = await newRecord(w.t);
    await send(w.t, eventsFor(r).completed(baseSeconds()));
    await send(w.t, eventsFor(r).deleted(baseSeconds() + 1));
    // Delivered before the erasure (one still pending then would end failed `erased`).
    await eventually('paid and canceled delivered', () => deliveredIds(r.sub.id).length === 2);
    await w.t
      .http()
      .post(`/api/v1/subscriptions/${r.sub.id}/erase`)
      .set('Cookie', w.admin.cookie)
      .expect(200);
    const held = await eventually('three deliveries recorded', async () => {
      const e = await exportOf(r.sub.id);
      return e.deliveries.length === 3 && e;
    });
    expect(held.subscription).toMatchObject({
      customer: { email: null, name: null, phone: null },
      erased_at: expect.any(String),
    });
    expect(held.deliveries.map((d) => d.type).sort()).toEqual([
      'subscription.canceled',
      'subscription.erased',
      'subscription.paid',
    ]);
  });

  it('answers 404 for a record that does not exist', async () => {
    await w.t
      .http()
      .get('/api/v1/subscriptions/7a0e3f8e-0000-4000-8000-000000000000/export')
      .set('Cookie', w.admin.cookie)
      .expect(404);
  });
});
