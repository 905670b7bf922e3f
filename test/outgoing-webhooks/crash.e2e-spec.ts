import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { subjectFor } from '../support/auth';
import { unique } from '../support/factories';
import { sharedIdentityProvider } from '../support/identity-provider';
import { ServerProcess, spawnServer } from '../support/server-process';
import { embeddedRun } from '../support/test-app';
import { eventually, WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(180_000);

/**
 * The process is SIGKILLed after the event committed and while its first attempt waits for the
 * receiver's answer; after a restart on the same database the lease runs out, the event is sent
 * again with the same id and body, and recorded delivered once.
 */
describe('outgoing webhooks: a crash between commit and delivery', () => {
  const servers: ServerProcess[] = [];
  let receiver: WebhookReceiver;
  let dropDatabase = async () => {};
  afterAll(async () => {
    for (const s of servers.reverse()) await s.cleanup();
    await receiver?.stop();
    await dropDatabase();
  });

  /**
   * A database of its own on PostgreSQL: the bootstrap admin is made only on a database with no
   * account yet, and the run's database has many (embedded, each server has its own directory).
   */
  async function ownDatabase(): Promise<Record<string, string>> {
    const server = process.env.TEST_DATABASE_URL;
    if (embeddedRun() || !server) return {};
    const name = `dc_crash_${randomBytes(4).toString('hex')}`;
    const admin = async (sql: string) => {
      const c = new Client({ connectionString: server });
      await c.connect();
      await c.query(sql).finally(() => c.end());
    };
    await admin(`CREATE DATABASE "${name}"`);
    dropDatabase = () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    const url = new URL(server);
    url.pathname = `/${name}`;
    return { DATABASE_URL: url.toString() };
  }

  it('delivers the event after a restart, once', async () => {
    const idp = await sharedIdentityProvider();
    const email = `${unique('crash')}@example.com`;
    const env = {
      ...idp.env(),
      BOOTSTRAP_ORG_NAME: 'Crash Org',
      BOOTSTRAP_ADMIN_EMAIL: email,
      OUTGOING_WEBHOOK_TIMEOUT_SECONDS: '2',
      ...(await ownDatabase()),
    };
    const first = await spawnServer(env);
    servers.push(first);
    const login = await fetch(`${first.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        id_token: await idp.token({ claims: { email, sub: subjectFor(email) } }),
      }),
    });
    expect(login.status).toBe(200);
    const cookie = (login.headers.get('set-cookie') ?? '').split(';')[0];
    const json = { 'Content-Type': 'application/json', Cookie: cookie };
    receiver = await new WebhookReceiver().start();
    let killed = false;
    receiver.answer = () => {
      if (killed) return { status: 204 };
      killed = true;
      first.child.kill('SIGKILL');
      return 'hang';
    };
    const created = await fetch(`${first.url}/api/v1/webhook-endpoints`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ url: receiver.url, event_types: ['device.registered'] }),
    });
    expect(created.status).toBe(201);
    const endpoint = (await created.json()) as { id: string };
    const device_id = unique('crash-hub');
    const device = await fetch(`${first.url}/api/v1/devices`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ device_id, model: 'hub-2', provider: 'acme' }),
    });
    expect(device.status).toBe(201);
    expect(await first.exited).toBeNull(); // killed by the signal

    const second = await spawnServer(
      embeddedRun() ? { ...env, PGLITE_DATA_DIR: first.dataDir! } : env,
    );
    servers.push(second);
    await eventually('sent again after the restart', () => receiver.received.length === 2);
    const [a, b] = receiver.received;
    expect(b.headers['webhook-id']).toBe(a.headers['webhook-id']);
    expect(b.body).toBe(a.body);
    expect(a.json).toMatchObject({ type: 'device.registered', data: { device_id } });
    const list = await eventually('recorded delivered', async () => {
      const res = await fetch(`${second.url}/api/v1/webhook-endpoints/${endpoint.id}/deliveries`, {
        headers: { Cookie: cookie },
      });
      const body = (await res.json()) as { items: { status: string; attempts: number }[] };
      return body.items[0]?.status === 'delivered' ? body.items : undefined;
    });
    expect(list).toEqual([expect.objectContaining({ status: 'delivered', attempts: 1 })]);
    await new Promise((r) => setTimeout(r, 1500)); // a second poll finds nothing more to send
    expect(receiver.received).toHaveLength(2);
  });
});
