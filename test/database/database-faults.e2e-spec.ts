import { Client } from 'pg';
import type { Response } from 'supertest';
import { signIn } from '../support/auth';
import { capturedLogs } from '../support/captured-logs';
import { processorEnv } from '../support/checkout';
import { EmptyDatabase, emptyDatabase } from '../support/empty-database';
import { FakeProcessor } from '../support/fake-processor';
import { createTestApp, embeddedRun, TestApp } from '../support/test-app';

/**
 * Database faults a client cannot cause answer `503 unavailable` with Retry-After, logged at
 * warn without a stack (docs/operations.md). PostgreSQL only: the embedded database has one
 * connection, so a second one cannot lock a table or end the service's backends. On a database of
 * its own: it locks tables and ends every backend of its database, which would hit the apps of
 * other specs running at the same time in other workers.
 */
const onPostgres = embeddedRun() ? describe.skip : describe;
// A lock is held past the connection's statement timeout (15 s).
jest.setTimeout(60_000);

onPostgres('database faults on PostgreSQL', () => {
  let t: TestApp;
  let fake: FakeProcessor;
  let admin: Client;
  let logs: string[];
  let db: EmptyDatabase;
  beforeAll(async () => {
    db = await emptyDatabase();
    fake = await new FakeProcessor().start();
    // The app migrates its empty database at boot.
    const captured = capturedLogs({ ...processorEnv(fake.url), DATABASE_URL: db.url });
    logs = captured.lines;
    t = await createTestApp(captured.options);
    admin = new Client({ connectionString: db.url });
    await admin.connect();
  });
  afterAll(async () => {
    await admin.end();
    await t.close();
    await fake.stop();
    await db.stop();
  });

  /** Holds `table` locked from a second connection while `during` runs. */
  async function whileLocked<T>(table: string, during: () => Promise<T>): Promise<T> {
    await admin.query('BEGIN');
    await admin.query(`LOCK TABLE ${table} IN ACCESS EXCLUSIVE MODE`);
    try {
      return await during();
    } finally {
      await admin.query('ROLLBACK');
    }
  }

  /** Resolves once one of the service's backends waits on a lock. */
  async function someoneWaits(): Promise<void> {
    for (;;) {
      const { rows } = await admin.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()`,
      );
      if (rows[0].n > 0) return;
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  function expectUnavailable(res: Response, since: number): void {
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBeDefined();
    expect(res.body).toMatchObject({ code: 'unavailable' });
    const lines = logs.slice(since).filter((l) => /Database unavailable/.test(l));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) {
      expect(JSON.parse(line)).toMatchObject({ level: 40 });
      expect(line).not.toMatch(/\n\s+at /);
      expect(line).not.toMatch(/\\n\s+at /);
    }
  }

  it('answers 503 when a table stays locked past the statement timeout', async () => {
    const { cookie } = await signIn(t);
    const since = logs.length;
    const res = await whileLocked('users, sessions', () =>
      t.http().get('/api/auth/me').set('Cookie', cookie),
    );
    expectUnavailable(res, since);
  });

  /**
   * Starts `request` while `table` is locked, and once it waits on the lock, terminates every
   * backend of the service; its answer.
   */
  function terminatedWhileWaiting(table: string, request: () => Promise<Response>) {
    return whileLocked(table, async () => {
      const answer = request();
      await someoneWaits();
      await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND pid <> pg_backend_pid()`,
      );
      return answer;
    });
  }

  it("answers 503 when the service's backends are terminated mid-request (checkout's save)", async () => {
    const since = logs.length;
    const res = await terminatedWhileWaiting('subscriptions', async () =>
      t.http().post('/api/lease/checkout').send({}),
    );
    expectUnavailable(res, since);
  });

  it('answers 503 when a backend is terminated inside a session lookup', async () => {
    const { cookie } = await signIn(t);
    const since = logs.length;
    const res = await terminatedWhileWaiting('users, sessions', async () =>
      t.http().get('/api/auth/me').set('Cookie', cookie),
    );
    expectUnavailable(res, since);
  });
});
