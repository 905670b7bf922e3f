import { createServer, Server } from 'node:http';
import { DataSource, EntityManager } from 'typeorm';
import { EventOutbox } from '../../src/outgoing-webhook/outbox/event-outbox.service';
import { Clock } from '../../src/common/clock/clock';
import { signIn } from '../support/auth';
import { FakeClock } from '../support/fake-clock';
import { createTestApp, TestApp, TestAppOptions } from '../support/test-app';
import { createFulfilmentOrg, LIFECYCLE_ENV, newFulfilmentOrgId } from '../support/subscriptions';
import { eventually, WebhookReceiver } from '../support/webhook-receiver';

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

/** A request the HeldReceiver holds until the test answers it. */
export interface HeldRequest {
  webhookId: string;
  answer(status: number): void;
}

/**
 * A receiver on 127.0.0.1 that holds every delivery until the test answers it, and counts how
 * many were in flight at once: to see what the sender does while an attempt is open.
 */
export class HeldReceiver {
  readonly waiting: HeldRequest[] = [];
  received = 0;
  inFlight = 0;
  maxInFlight = 0;
  private server?: Server;

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        this.received++;
        this.inFlight++;
        this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
        this.waiting.push({
          webhookId: String(req.headers['webhook-id']),
          answer: (status) => {
            this.inFlight--;
            res.writeHead(status).end();
          },
        });
      });
    });
    await new Promise<void>((r) => this.server!.listen(0, '127.0.0.1', r));
    return this;
  }

  get url(): string {
    const address = this.server?.address();
    return `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/hook`;
  }

  /** The next held request, once it has come. */
  next(): Promise<HeldRequest> {
    return eventually('a delivery held', () => this.waiting.shift());
  }

  async stop(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((r) => (this.server ? this.server.close(() => r()) : r()));
  }
}

/** A device event written through the outbox, as the device service does in its transaction. */
export function recordDeviceEvent(t: TestApp, orgId: string, m?: EntityManager): Promise<string> {
  const record = (manager: EntityManager) =>
    t.app.get(EventOutbox).record(manager, {
      type: 'device.registered',
      orgId,
      data: { device_id: 'hub-e2e', org_id: orgId, model: 'hub-2', provider: 'acme' },
    });
  return m ? record(m) : t.app.get(DataSource).transaction(record);
}
