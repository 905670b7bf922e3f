import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/clock/clock';
import { signIn } from '../support/auth';
import { FakeClock } from '../support/fake-clock';
import { createTestApp, TestApp, TestAppOptions } from '../support/test-app';
import { createFulfilmentOrg, LIFECYCLE_ENV, newFulfilmentOrgId } from '../support/subscriptions';
import { WebhookReceiver } from '../support/webhook-receiver';

export interface WebhookWorld {
  t: TestApp;
  clock: FakeClock;
  fulfilmentOrgId: string;
  /** An admin of the fulfilment organization. */
  admin: { cookie: string; orgId: string; id: string };
  receiver: WebhookReceiver;
  close(): Promise<void>;
}

/** An app on a fake clock with a fulfilment org, its admin, and a receiver on 127.0.0.1. */
export async function webhookWorld(
  env: Record<string, string> = {},
  options: Pick<TestAppOptions, 'override'> = {},
): Promise<WebhookWorld> {
  const clock = new FakeClock();
  const fulfilmentOrgId = newFulfilmentOrgId();
  const t = await createTestApp({
    env: { ...LIFECYCLE_ENV, FULFILMENT_ORG_ID: fulfilmentOrgId, ...env },
    override: (b) => (options.override ?? ((x) => x))(b.overrideProvider(Clock).useValue(clock)),
  });
  await createFulfilmentOrg(t.app, fulfilmentOrgId);
  const signed = await signIn(t, { orgId: fulfilmentOrgId, role: 'admin' });
  const receiver = await new WebhookReceiver().start();
  return {
    t,
    clock,
    fulfilmentOrgId,
    admin: { cookie: signed.cookie, orgId: signed.user.orgId, id: signed.user.id },
    receiver,
    close: async () => {
      await t.close();
      await receiver.stop();
    },
  };
}

/** Registers an endpoint through the API; returns its id and secret. */
export async function addEndpoint(
  t: TestApp,
  cookie: string,
  body: Record<string, unknown>,
): Promise<{ id: string; secret: string }> {
  const res = await t.http().post('/api/v1/webhook-endpoints').set('Cookie', cookie).send(body);
  if (res.status !== 201) throw new Error(`endpoint not created: ${res.status} ${res.text}`);
  return { id: res.body.id as string, secret: res.body.secret as string };
}

/** The endpoint's deliveries as the API lists them. */
export async function deliveriesOf(t: TestApp, cookie: string, endpointId: string) {
  const res = await t
    .http()
    .get(`/api/v1/webhook-endpoints/${endpointId}/deliveries`)
    .set('Cookie', cookie)
    .expect(200);
  return res.body.items as {
    event_id: string;
    type: string;
    status: string;
    attempts: number;
    last_status_code: number | null;
    last_error: string | null;
    next_attempt_at: string | null;
  }[];
}

/** One delivery as stored, read from the database (no session: tests move the clock by days). */
export async function storedDelivery(t: TestApp, endpointId: string, eventId: string) {
  const [row] = await t.app.get(DataSource).query<
    {
      status: string;
      attempts: number;
      last_status_code: number | null;
      last_error: string | null;
      next_attempt_at: Date | null;
    }[]
  >(
    `SELECT status, attempts, last_status_code, last_error, next_attempt_at
      FROM webhook_deliveries WHERE endpoint_id = $1 AND event_id = $2`,
    [endpointId, eventId],
  );
  return row;
}
