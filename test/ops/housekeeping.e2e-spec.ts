import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/clock/clock';
import { Housekeeping } from '../../src/database/housekeeping.service';
import { emptyDatabase, EmptyDatabase } from '../support/empty-database';
import { createUser } from '../support/factories';
import { FakeClock } from '../support/fake-clock';
import { otherEvent, sign } from '../support/processor-events';
import { createTestApp, embeddedRun, TestApp } from '../support/test-app';
import { deliver, WEBHOOK_ENV, webhookEventsOf } from '../support/webhook';

/**
 * Housekeeping (docs/checkout.md): sessions ended more than 7 days ago and webhook event ids
 * older than 90 days go, newer rows stay, as the Clock moves. On an empty database of its own, so
 * the moved clock never reaches another spec's rows.
 */
const HOUR = 3600;
const DAY = 24 * HOUR;

describe('housekeeping', () => {
  let db: EmptyDatabase;
  let clock: FakeClock;
  let t: TestApp;
  let userId: string;
  const at = (t0: Date, seconds: number) => new Date(t0.getTime() + seconds * 1000);
  const run = () => t.app.get(Housekeeping).runOnce();
  const sql = <T>(text: string, params: unknown[] = []) =>
    t.app.get(DataSource).query<T[]>(text, params);

  beforeAll(async () => {
    db = await emptyDatabase();
    clock = new FakeClock();
    t = await createTestApp({
      env: { DATABASE_URL: db.url, RECONCILE_INTERVAL_SECONDS: '0', ...WEBHOOK_ENV },
      override: (b) => b.overrideProvider(Clock).useValue(clock),
    });
    userId = (await createUser(t.app)).id;
  });
  afterAll(async () => {
    await t?.close();
    await db?.stop();
  });

  /** A session row whose ends are given in seconds from t0 (null: never revoked). */
  async function session(
    t0: Date,
    ends: { expires: number; idle: number; revoked?: number },
  ): Promise<string> {
    const rows = await sql<{ id: string }>(
      `INSERT INTO sessions (token_hash, user_id, created_at, last_used_at, expires_at,
        idle_expires_at, revoked_at) VALUES ($1, $2, $3, $3, $4, $5, $6) RETURNING id`,
      [
        randomBytes(32).toString('hex'),
        userId,
        at(t0, -HOUR),
        at(t0, ends.expires),
        at(t0, ends.idle),
        ends.revoked === undefined ? null : at(t0, ends.revoked),
      ],
    );
    return rows[0].id;
  }
  const sessionIds = async () =>
    (await sql<{ id: string }>('SELECT id FROM sessions')).map((r) => r.id).sort();

  it('deletes sessions 7 days after they ended (expired, idle or revoked), not before', async () => {
    const t0 = clock.now();
    const revoked = await session(t0, { expires: 11 * HOUR, idle: 1800, revoked: 0 });
    const idle = await session(t0, { expires: 11 * HOUR, idle: -HOUR });
    const expired = await session(t0, { expires: -2 * HOUR, idle: -2 * HOUR });
    const live = await session(t0, { expires: 12 * HOUR, idle: 2 * HOUR });
    const all = [revoked, idle, expired, live].sort();

    clock.advance(6 * DAY);
    expect((await run()).deleted.sessions).toBe(0);
    expect(await sessionIds()).toEqual(all);

    clock.advance(DAY + 600); // t0 + 7 d 10 min: the three ended at t0 or before go
    expect((await run()).deleted.sessions).toBe(3);
    expect(await sessionIds()).toEqual([live]);

    clock.advance(2 * HOUR); // the live one ended (idle) at t0 + 2 h
    expect((await run()).deleted.sessions).toBe(1);
    expect(await sessionIds()).toEqual([]);
  });

  it('deletes webhook event ids 90 days after they were received (by the Clock)', async () => {
    const t0 = clock.now();
    const payload = JSON.stringify(otherEvent('customer.created'));
    const seconds = Math.floor(t0.getTime() / 1000);
    expect((await deliver(t, payload, sign(payload, undefined, seconds))).status).toBe(200);
    const delivered = (await webhookEventsOf(t).find())[0];
    expect(delivered.receivedAt.getTime()).toBe(t0.getTime());

    clock.advance(89 * DAY);
    expect((await run()).deleted.webhook_events).toBe(0);
    expect(await webhookEventsOf(t).count()).toBe(1);
    clock.advance(DAY + 1);
    expect((await run()).deleted.webhook_events).toBe(1);
    expect(await webhookEventsOf(t).count()).toBe(0);
  });

  it('deletes a backlog larger than a batch (1000) in one pass, and keeps what is newer', async () => {
    const now = clock.now();
    await sql(
      `INSERT INTO processed_webhook_events (id, type, outcome, received_at)
        SELECT 'evt_old_' || g, 'invoice.paid', 'applied', $1::timestamptz - g * interval '1 second'
        FROM generate_series(1, 2500) g`,
      [at(now, -91 * DAY)],
    );
    await sql(
      `INSERT INTO processed_webhook_events (id, type, outcome, received_at)
        VALUES ('evt_recent', 'invoice.paid', 'applied', $1)`,
      [at(now, -89 * DAY)],
    );
    expect((await run()).deleted.webhook_events).toBe(2500);
    expect((await webhookEventsOf(t).find()).map((e) => e.id)).toEqual(['evt_recent']);
  });

  // The embedded database is one PostgreSQL session: every connection holds its advisory locks.
  (embeddedRun() ? it.skip : it)('leaves the pass to the instance holding the lock', async () => {
    await sql(
      `INSERT INTO processed_webhook_events (id, type, outcome, received_at)
        VALUES ('evt_locked_out', 'invoice.paid', 'applied', $1)`,
      [at(clock.now(), -100 * DAY)],
    );
    const other = new Client({ connectionString: db.url });
    await other.connect();
    try {
      await other.query('SELECT pg_advisory_lock(4242016)');
      const report = await run();
      expect(report.skipped).toBe('another_instance');
      expect(await webhookEventsOf(t).countBy({ id: 'evt_locked_out' })).toBe(1);
      await other.query('SELECT pg_advisory_unlock(4242016)');
      expect((await run()).deleted.webhook_events).toBe(1);
    } finally {
      await other.end();
    }
  });

  it('runs on its own timer (HOUSEKEEPING_INTERVAL_SECONDS), also with the reconcile pass off', async () => {
    const ended = await session(clock.now(), { expires: -8 * DAY, idle: -8 * DAY });
    const periodic = await createTestApp({
      env: {
        DATABASE_URL: db.url,
        RECONCILE_INTERVAL_SECONDS: '0',
        HOUSEKEEPING_INTERVAL_SECONDS: '1',
      },
      override: (b) => b.overrideProvider(Clock).useValue(clock),
    });
    try {
      for (let i = 0; i < 100 && (await sessionIds()).includes(ended); i++) {
        await new Promise((r) => setTimeout(r, 100));
      }
      expect(await sessionIds()).not.toContain(ended);
    } finally {
      await periodic.close();
    }
  });
});
