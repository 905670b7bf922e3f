import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { keyId } from '../../src/personal-data/personal-data.crypto';
import { signIn } from '../support/auth';
import { processorEnv } from '../support/checkout';
import { EmptyDatabase, emptyDatabase } from '../support/empty-database';
import { describeEmbeddedTier } from '../support/tiers';
import { FakeProcessor } from '../support/fake-processor';
import { jsonLines, ServerProcess, spawnServer } from '../support/server-process';
import { createFulfilmentOrg, newFulfilmentOrgId } from '../support/subscriptions';
import { createTestApp, TestApp } from '../support/test-app';
import { eventually, verifies, WebhookReceiver } from '../support/webhook-receiver';
import { addEndpoint } from '../outgoing-webhooks/support';
import { cliJsonWith } from './support';

/**
 * Contract section 9, "Keys": rotation with DATA_ENCRYPTION_PREVIOUS_KEYS and `data:rekey`, the
 * boot's key check, and the key made for the embedded default. Each on a database of its own:
 * the run's shared databases are all under TEST_DATA_KEY.
 */
jest.setTimeout(180_000);

const newKey = () => randomBytes(32).toString('base64');
const kid = (key: string) => keyId(Buffer.from(key, 'base64'));

async function query<T>(url: string, sql: string): Promise<T[]> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query(sql)).rows as T[];
  } finally {
    await c.end();
  }
}

describe('rotating DATA_ENCRYPTION_KEY: previous keys, data:rekey, the boot check', () => {
  const [A, B] = [newKey(), newKey()];
  const orgId = newFulfilmentOrgId();
  let db: EmptyDatabase;
  let fake: FakeProcessor;
  let receiver: WebhookReceiver;
  let t: TestApp | undefined;
  let subscriptionId: string;
  let endpoint: { id: string; secret: string };

  const boot = async (key: string, previous?: string) => {
    await stop();
    t = await createTestApp({
      env: {
        ...processorEnv(fake.url),
        DATABASE_URL: db.url,
        DATABASE_POOL_SIZE: '1',
        FULFILMENT_ORG_ID: orgId,
        DATA_ENCRYPTION_KEY: key,
        ...(previous ? { DATA_ENCRYPTION_PREVIOUS_KEYS: previous } : {}),
      },
    });
    return t;
  };
  const stop = async () => {
    await t?.close();
    t = undefined;
  };
  const admin = async (app: TestApp) => (await signIn(app, { orgId, role: 'admin' })).cookie;

  /** The record reads (its name opened) and a test event to the endpoint verifies. */
  async function readsAndSigns(app: TestApp, name: string) {
    const cookie = await admin(app);
    const shown = await app
      .http()
      .get(`/api/v1/subscriptions/${subscriptionId}`)
      .set('Cookie', cookie)
      .expect(200);
    expect(shown.body).toMatchObject({ id: subscriptionId, customer: { name } });
    const sent = await app
      .http()
      .post(`/api/v1/webhook-endpoints/${endpoint.id}/test`)
      .set('Cookie', cookie)
      .send({})
      .expect(202);
    const d = await eventually('the test event', () =>
      receiver.received.find((r) => r.headers['webhook-id'] === sent.body.event_id),
    );
    expect(verifies(endpoint.secret, d)).toBe(true);
  }

  beforeAll(async () => {
    db = await emptyDatabase();
    fake = await new FakeProcessor().start();
    receiver = await new WebhookReceiver().start();
  });
  afterAll(async () => {
    await stop();
    await receiver.stop();
    await fake.stop();
    await db.stop();
  });

  it('writes data under key A', async () => {
    const app = await boot(A);
    await createFulfilmentOrg(app.app, orgId);
    endpoint = await addEndpoint(app, await admin(app), { url: receiver.url });
    const res = await app
      .http()
      .post('/api/lease/checkout')
      .send({ name: 'Rotation Person', email: `${randomBytes(4).toString('hex')}@example.com` })
      .expect(200);
    subscriptionId = res.body.subscription_id as string;
    try {
      await readsAndSigns(app, 'Rotation Person');
    } finally {
      await stop();
    }
    const keys = await query<{ wrapped: string }>(db.url, 'SELECT wrapped FROM data_keys');
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((k) => k.wrapped.startsWith(`k1.${kid(A)}.`))).toBe(true);
  });

  /** What the boot logged at `level` (the DataKeys logger's lines among them). */
  async function bootLogging(level: 'log' | 'warn', key: string, previous?: string) {
    const spy = jest.spyOn(Logger.prototype, level);
    try {
      const app = await boot(key, previous);
      return { app, lines: spy.mock.calls.map(([message]) => String(message)) };
    } finally {
      spy.mockRestore();
    }
  }

  it('with key B and A among the previous keys: reads, signs, and data:rekey rewraps all', async () => {
    const { app, lines } = await bootLogging('warn', B, A);
    expect(lines).toContainEqual(
      expect.stringMatching(
        /still under a previous key.*data:rekey.*DATA_ENCRYPTION_PREVIOUS_KEYS/,
      ),
    );
    await readsAndSigns(app, 'Rotation Person');
    await stop(); // the embedded database: one connection at a time
    const rekey = () =>
      cliJsonWith(
        { DATABASE_URL: db.url, DATA_ENCRYPTION_KEY: B, DATA_ENCRYPTION_PREVIOUS_KEYS: A },
        ['data:rekey'],
      );
    expect(await rekey()).toEqual({
      key_id: kid(B),
      data_keys: 1,
      webhook_secrets: 1,
      key_check: 'rewrapped',
    });
    // Resumable and idempotent: nothing is left to do.
    expect(await rekey()).toEqual({
      key_id: kid(B),
      data_keys: 0,
      webhook_secrets: 0,
      key_check: 'already_current',
    });
  });

  it('after data:rekey, a boot still given key A says it is no longer needed', async () => {
    const { lines } = await bootLogging('log', B, A);
    await stop();
    expect(lines).toContainEqual(
      expect.stringMatching(/previous keys no longer needed.*remove DATA_ENCRYPTION_PREVIOUS_KEYS/),
    );
  });

  it('boots with key B alone after data:rekey: every data key and secret names B', async () => {
    try {
      await readsAndSigns(await boot(B), 'Rotation Person');
    } finally {
      await stop();
    }
    const wrapped = [
      ...(await query<{ w: string }>(db.url, 'SELECT wrapped AS w FROM data_keys')),
      ...(await query<{ w: string }>(
        db.url,
        'SELECT secret_encrypted AS w FROM webhook_endpoints',
      )),
      ...(await query<{ w: string }>(db.url, 'SELECT key_check AS w FROM data_protection')),
    ];
    expect(wrapped.length).toBe(3);
    expect(wrapped.map((r) => r.w.split('.').slice(0, 2).join('.'))).toEqual(
      wrapped.map(() => `k1.${kid(B)}`),
    );
  });

  it('a boot with a key that cannot read the data (the old A alone, or another) stops, naming DATA_ENCRYPTION_KEY', async () => {
    for (const key of [A, newKey()]) {
      const server = await spawnServer(
        { DATABASE_URL: db.url, PGLITE_DATA_DIR: undefined, DATA_ENCRYPTION_KEY: key },
        { boot: false },
      );
      try {
        const listening = server
          .waitForLine(/Listening on http/)
          .then(() => 'listening' as const)
          .catch(() => 'exited' as const);
        expect(await Promise.race([server.exited, listening])).toBe(1);
        const fatal = jsonLines(server.lines).find((l) => l.level === 60);
        expect(fatal).toMatchObject({ settings: expect.arrayContaining(['DATA_ENCRYPTION_KEY']) });
        expect(String(fatal?.msg)).toMatch(/DATA_ENCRYPTION_KEY/);
        expect(String(fatal?.msg)).toContain(kid(B)); // the key the data is under, by its id
        expect(server.lines.join('\n')).not.toContain(key);
      } finally {
        await server.cleanup();
      }
    }
  });
});

describeEmbeddedTier('the embedded default with no DATA_ENCRYPTION_KEY', () => {
  let dir: string;
  let server: ServerProcess | undefined;
  beforeAll(() => (dir = mkdtempSync(join(tmpdir(), 'dc-keys-'))));
  afterAll(async () => {
    await server?.cleanup();
    rmSync(dir, { recursive: true, force: true });
  });

  const env = () => ({
    DATA_ENCRYPTION_KEY: undefined,
    DATABASE_URL: undefined,
    PGLITE_DATA_DIR: join(dir, 'pglite'),
  });
  const stopGracefully = async (s: ServerProcess) => {
    s.child.kill('SIGTERM');
    await s.exited;
    await s.cleanup();
  };

  it('makes a key beside the data (mode 0600) with a warning, and reuses it after a restart', async () => {
    const file = join(dir, 'pglite.data-key');
    server = await spawnServer(env());
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const key = readFileSync(file, 'utf8').trim();
    const made = jsonLines(server.lines).find((l) => String(l.msg).includes(file));
    expect(made).toMatchObject({ level: 40 });
    expect(String(made?.msg)).toMatch(/DATA_ENCRYPTION_KEY is not set/);
    expect(server.lines.join('\n')).not.toContain(key);
    await stopGracefully(server);

    server = await spawnServer(env());
    expect(readFileSync(file, 'utf8').trim()).toBe(key);
    const warned = jsonLines(server.lines)
      .filter((l) => l.level === 40)
      .map((l) => String(l.msg));
    expect(warned.some((m) => m.includes(kid(key)))).toBe(true);
    expect(warned.some((m) => m.includes('made a key'))).toBe(false);
    expect((await fetch(`${server.url}/health`)).status).toBeLessThan(500);
    await stopGracefully(server);
    server = undefined;
  });
});
