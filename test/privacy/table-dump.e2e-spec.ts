import { randomBytes } from 'node:crypto';
import { capturedLogs } from '../support/captured-logs';
import { createDevice } from '../support/factories';
import { processorEnv, subscriptionsOf } from '../support/checkout';
import { FakeProcessor } from '../support/fake-processor';
import { sign } from '../support/processor-events';
import { testDatabaseUrl } from '../support/test-app';
import { deliver } from '../support/webhook';
import { eventually } from '../support/webhook-receiver';
import { addEndpoint, WebhookWorld, webhookWorld } from '../outgoing-webhooks/support';
import { distinctivePerson, dumpTables, foundIn, leaks, paidEvent, personValues } from './support';

/**
 * Contract section 9, "sealed at rest": after a checkout, its paid event and the outgoing
 * webhooks (one failed attempt and a retry each), a raw dump of every table holds none of the
 * personal values, nor does the log; the integrator's endpoint did get them. On the run's database.
 */
jest.setTimeout(120_000);

describe('a raw dump of every table holds no personal data', () => {
  const { lines, options } = capturedLogs();
  let w: WebhookWorld;
  let fake: FakeProcessor;
  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    w = await webhookWorld(
      {
        ...options.env,
        ...processorEnv(fake.url),
        OUTGOING_WEBHOOK_RETRY_SCHEDULE: '1s',
        RECONCILE_INTERVAL_SECONDS: '0',
      },
      { override: options.override },
    );
  });
  afterAll(async () => {
    await w?.close();
    await fake.stop();
  });

  it('after a checkout, its paid event and retried deliveries', async () => {
    const p = distinctivePerson();
    const values = personValues(p);
    await addEndpoint(w.t, w.admin.cookie, {
      url: w.receiver.url,
      event_types: ['subscription.created', 'subscription.paid', 'subscription.shipped'],
    });
    // Each event's first attempt fails: its body is stored until the retry.
    const attempts = new Map<string, number>();
    w.receiver.answer = (d) => {
      const id = String(d.headers['webhook-id']);
      attempts.set(id, (attempts.get(id) ?? 0) + 1);
      return attempts.get(id) === 1 ? { status: 500, body: 'try again' } : { status: 204 };
    };

    const res = await w.t
      .http()
      .post('/api/lease/checkout')
      .send({ name: p.name, email: p.email })
      .expect(200);
    const id = res.body.subscription_id as string;
    const { checkoutSessionId } = await subscriptionsOf(w.t).findOneByOrFail({ id });
    const payload = JSON.stringify(paidEvent(id, checkoutSessionId!, p));
    await deliver(w.t, payload, sign(payload)).expect(200, { received: true });
    // The device shipped, with its tracking number (personal: it locates a home; section 10).
    const tracking = `TRK${randomBytes(6).toString('hex').toUpperCase()}`;
    values.push(tracking);
    const device = await createDevice(w.t.app, w.fulfilmentOrgId);
    await w.t
      .http()
      .put(`/api/v1/subscriptions/${id}/device`)
      .set('Cookie', w.admin.cookie)
      .send({ device_id: device.deviceId, carrier: 'UPS', tracking_number: tracking })
      .expect(200);

    const ours = (type: string) =>
      w.receiver.of(type).filter((d) => (d.json.data as { id?: string }).id === id);
    await eventually('both events delivered after a failed attempt', () => {
      w.clock.advance(2); // past the 1 s retry step
      const types = ['subscription.created', 'subscription.paid', 'subscription.shipped'];
      return types.every((t) => ours(t).length >= 2);
    });

    // Not vacuous: what the integrator got carries every value.
    const received = ['subscription.created', 'subscription.paid', 'subscription.shipped']
      .flatMap((t) => ours(t))
      .map((d) => d.body)
      .join('\n');
    const shown = await w.t
      .http()
      .get(`/api/v1/subscriptions/${id}`)
      .set('Cookie', w.admin.cookie)
      .expect(200);
    expect(foundIn(received + JSON.stringify(shown.body), values).sort()).toEqual(
      [...values].sort(),
    );

    const dump = await dumpTables(testDatabaseUrl());
    expect(dump.get('subscriptions')?.some((row) => row.includes(id))).toBe(true);
    expect(dump.get('outgoing_events')?.some((row) => row.includes(id))).toBe(true);
    expect(leaks(dump, values)).toEqual([]);
    expect(foundIn(lines.join(''), values)).toEqual([]);
  });
});
