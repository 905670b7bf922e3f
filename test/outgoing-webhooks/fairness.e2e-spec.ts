import { DataSource } from 'typeorm';
import { EventOutbox } from '../../src/outgoing-webhook/outbox/event-outbox.service';
import { PER_ENDPOINT as CAP } from '../../src/outgoing-webhook/delivery/webhook-delivery.worker';
import { eventually, WebhookReceiver } from '../support/webhook-receiver';
import { addEndpoint, HeldReceiver, WebhookWorld, webhookWorld } from './support';

const HANGING = 50;

describe('outgoing webhooks: one endpoint that hangs does not hold up the others', () => {
  let w: WebhookWorld;
  const stops: { stop(): Promise<void> }[] = [];
  beforeAll(async () => {
    // Far longer than the test: a hanging attempt ends only when the receiver answers it.
    w = await webhookWorld({ OUTGOING_WEBHOOK_TIMEOUT_SECONDS: '120' });
  });
  afterAll(async () => {
    await w.close();
    for (const s of stops) await s.stop();
  });

  const inFlightTo = async (endpointId: string) => {
    const [row] = await w.t.app
      .get(DataSource)
      .query<{ n: number }[]>(
        'SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND claim_token IS NOT NULL',
        [endpointId],
      );
    return row.n;
  };

  it(`sends another endpoint's event at once while ${HANGING} hang, never more than ${CAP} at a time to one endpoint`, async () => {
    const held = await new HeldReceiver().start();
    stops.push(held);
    const hanging = await addEndpoint(w.t, w.admin.cookie, {
      url: held.url,
      event_types: ['device.registered'],
    });
    const quick = await new WebhookReceiver().start();
    stops.push(quick);
    await addEndpoint(w.t, w.admin.cookie, { url: quick.url, event_types: ['device.deactivated'] });
    const outbox = w.t.app.get(EventOutbox);
    const data = { device_id: 'hub-e2e', org_id: w.fulfilmentOrgId, model: 'hub-2', provider: 'a' };
    // All due at once, in one transaction: one claim sees the 50.
    await w.t.app.get(DataSource).transaction(async (m) => {
      for (let i = 0; i < HANGING; i++) {
        await outbox.record(m, { type: 'device.registered', orgId: w.fulfilmentOrgId, data });
      }
    });
    await eventually('the cap reached', () => held.received >= CAP);
    expect(await inFlightTo(hanging.id)).toBe(CAP);

    const eventId = await w.t.app
      .get(DataSource)
      .transaction((m) =>
        outbox.record(m, { type: 'device.deactivated', orgId: w.fulfilmentOrgId, data }),
      );
    // Without the cap, 16 hanging attempts would hold every slot for the 120 s timeout.
    await eventually('the other endpoint served', () =>
      quick.received.some((d) => d.headers['webhook-id'] === eventId),
    );
    expect(held.received).toBe(CAP);
    expect(await inFlightTo(hanging.id)).toBe(CAP);

    // Answered one by one, the rest follow, never more than the cap at once.
    for (let i = 0; i < HANGING; i++) (await held.next()).answer(204);
    expect(held.received).toBe(HANGING);
    expect(held.maxInFlight).toBe(CAP);
  });
});
