import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import type { QueryRunner } from 'typeorm';
import { PersonalDataSealed1795805367683 as Sealed } from '../../src/database/migrations/1795805367683-PersonalDataSealed';
import { Erasure1795900000000 as Erasure } from '../../src/database/migrations/1795900000000-Erasure';
import { AfterPayment1796000000000 as AfterPayment } from '../../src/database/migrations/1796000000000-AfterPayment';
import { DeliveryReasons1796150000000 as DeliveryReasons } from '../../src/database/migrations/1796150000000-DeliveryReasons';
import { ExpiredAt1796150000001 as ExpiredAt } from '../../src/database/migrations/1796150000001-ExpiredAt';
import { AuditChainKeyed1796200000000 as AuditChainKeyed } from '../../src/database/migrations/1796200000000-AuditChainKeyed';
import { signIn } from '../support/auth';
import { openedBody, recordOf } from '../support/checkout';
import { EmptyDatabase, emptyDatabase } from '../support/empty-database';
import { createTestApp, TestApp } from '../support/test-app';
import { cliJsonWith, dumpTables, leaks } from './support';

/**
 * The upgrade from a release that stored personal data in plain text (docs/privacy.md): on a
 * database migrated up to the migration before PersonalDataSealed, with a plain record and a
 * plain `subscription.paid` event, the boot (or `data:seal`) seals both. Own databases.
 */
jest.setTimeout(180_000);

async function withClient<T>(url: string, run: (c: Client) => Promise<T>): Promise<T> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

/** The column of a record's property. */
const snake = (key: string) => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** The old record's values where the API (and so `subscription:show`) shows them. */
const asShown = (v: Record<string, string>) => ({
  customer: { email: v.customerEmail, name: v.customerName, phone: v.customerPhone },
  recipient: {
    name: v.recipientName,
    living_situation: v.livingSituation,
    primary_concern: v.primaryConcern,
    zip: v.recipientZip,
  },
  shipping: { name: v.shippingName, address: v.shippingAddress },
});

interface OldRecord {
  orgId: string;
  id: string;
  values: Record<string, string>;
  event: { type: string; timestamp: string; data: Record<string, unknown> };
}

/** Every migration, PersonalDataSealed and those after it undone (their `down`), and one record as the old release kept it. */
async function databaseBeforeSealing(db: EmptyDatabase): Promise<OldRecord> {
  await cliJsonWith({ DATABASE_URL: db.url }, ['db:migrate']);
  const r = randomBytes(5).toString('hex');
  const values = {
    name: `Uname${r}`,
    email: `uemail${r}@example.com`,
    customerEmail: `ucust${r}@example.com`,
    customerName: `Ucname${r}`,
    customerPhone: `Uphone${r}`,
    recipientName: `Urecip${r}`,
    livingSituation: `Uliving${r}`,
    primaryConcern: `Uconcern${r}`,
    shippingName: `Uship${r}`,
    shippingAddress: `Uaddr${r} Street, Springfield`,
    recipientZip: `Uzip${r}`,
  };
  const orgId = randomUUID();
  const id = randomUUID();
  const event = {
    type: 'subscription.paid',
    timestamp: new Date().toISOString(),
    data: { id, status: 'paid', customer: { name: values.customerName, email: values.email } },
  };
  await withClient(db.url, async (c) => {
    // Every migration from PersonalDataSealed on, undone newest first: the old release's schema.
    const runner = {
      query: async (sql: string) => (await c.query<Record<string, unknown>>(sql)).rows,
    } as unknown as QueryRunner;
    const later = [
      new AuditChainKeyed(),
      new ExpiredAt(),
      new DeliveryReasons(),
      new AfterPayment(),
      new Erasure(),
      new Sealed(),
    ];
    const applied = (
      await c.query<{ name: string }>('SELECT name FROM migrations ORDER BY "timestamp" DESC')
    ).rows.map((m) => m.name);
    expect(applied.slice(0, later.length)).toEqual(later.map((m) => m.name));
    for (const migration of later) {
      await migration.down(runner);
      await c.query('DELETE FROM migrations WHERE name = $1', [migration.name]);
    }
    await c.query('INSERT INTO organizations (id, name, created_at) VALUES ($1, $2, now())', [
      orgId,
      'Fulfilment',
    ]);
    const columns = Object.keys(values).map(snake);
    await c.query(
      `INSERT INTO subscriptions (id, product, status, source, lease_cents, monthly_cents,
        currency, paid_at, created_at, updated_at, ${columns.join(', ')})
       VALUES ($1, 'lease', 'paid', 'web', 24900, 5000, 'usd', now(), now(), now(),
        ${columns.map((_, i) => `$${i + 2}`).join(', ')})`,
      [id, ...Object.values(values)],
    );
    await c.query(
      `INSERT INTO outgoing_events (id, type, org_id, payload, created_at, settled_at)
       VALUES ($1, 'subscription.paid', $2, $3, now(), now())`,
      [randomUUID(), orgId, JSON.stringify(event)],
    );
  });
  return { orgId, id, values, event };
}

const stillToSeal = (url: string) =>
  withClient(url, async (c) => {
    const { rows } = await c.query<{ t: string | null }>(
      `SELECT to_regclass('personal_data_to_seal')::text AS t`,
    );
    return rows[0].t !== null;
  });

describe('upgrading a database that holds personal data in plain text', () => {
  const dbs: EmptyDatabase[] = [];
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    for (const db of dbs) await db.stop();
  });

  it('the boot seals the record and its event; nothing plain is left', async () => {
    const db = await emptyDatabase();
    dbs.push(db);
    const old = await databaseBeforeSealing(db);
    t = await createTestApp({
      env: { DATABASE_URL: db.url, DATABASE_POOL_SIZE: '1', FULFILMENT_ORG_ID: old.orgId },
    });
    const { cookie } = await signIn(t, { orgId: old.orgId, role: 'admin' });
    const shown = await t
      .http()
      .get(`/api/v1/subscriptions/${old.id}`)
      .set('Cookie', cookie)
      .expect(200);
    expect(shown.body).toMatchObject(asShown(old.values));
    expect(await recordOf(t, old.id)).toMatchObject(old.values);
    expect(await stillToSeal(db.url)).toBe(false);
    const events = await withClient(
      db.url,
      async (c) =>
        (
          await c.query<{ payload: string; data_key_id: string | null }>(
            'SELECT payload, data_key_id FROM outgoing_events',
          )
        ).rows,
    );
    expect(events).toHaveLength(1);
    expect(events[0].data_key_id).toBe(old.id);
    expect(events[0].payload).toMatch(/^s1\./);
    expect(await openedBody(t.app, events[0])).toEqual(old.event);
    expect(leaks(await dumpTables(db.url), Object.values(old.values))).toEqual([]);
  });

  it('data:seal seals them too, says how many, and then that nothing is left', async () => {
    const db = await emptyDatabase();
    dbs.push(db);
    const old = await databaseBeforeSealing(db);
    const cli = (argv: string[]) => cliJsonWith({ DATABASE_URL: db.url }, argv);
    await cli(['db:migrate']); // moves the plain columns to personal_data_to_seal
    expect(await stillToSeal(db.url)).toBe(true);
    expect(await cli(['data:seal'])).toEqual({ records: 1, events: 1, done: true });
    expect(await cli(['data:seal'])).toEqual({ records: 0, events: 0, done: true });
    expect(await stillToSeal(db.url)).toBe(false);
    expect(await cli(['subscription:show', old.id])).toMatchObject(asShown(old.values));
    expect(leaks(await dumpTables(db.url), Object.values(old.values))).toEqual([]);
  });
});
