import { Logger } from '@nestjs/common';
import { Client } from 'pg';
import { cliJson } from '../support/cli';
import { EmptyDatabase, emptyDatabase } from '../support/empty-database';
import { createTestApp } from '../support/test-app';

/**
 * A database a newer release migrated (docs/operations.md, rolling deploys): this release boots
 * on it, says which migrations it does not know (a warn line, a gauge in /metrics) and db:migrate
 * lists them. On the run's kind of database (PostgreSQL, or the embedded one).
 */
jest.setTimeout(120_000);

const FUTURE = 'FromANewerRelease1899999999999';

describe('a database holding a migration this release does not know', () => {
  let db: EmptyDatabase;
  beforeAll(async () => {
    db = await emptyDatabase();
    process.env.DATABASE_URL = db.url;
    process.env.DATABASE_POOL_SIZE = '2';
    await cliJson(['db:migrate']);
    const c = new Client({ connectionString: db.url });
    await c.connect();
    await c.query('INSERT INTO migrations ("timestamp", name) VALUES ($1, $2)', [
      1899999999999,
      FUTURE,
    ]);
    await c.end();
  });
  afterAll(async () => {
    delete process.env.DATABASE_URL;
    delete process.env.DATABASE_POOL_SIZE;
    await db.stop();
  });

  it('db:migrate lists it and applies nothing', async () => {
    expect(await cliJson(['db:migrate'])).toEqual({ applied: [], unknown: [FUTURE] });
  });

  it('boots, warns naming it, and counts it in /metrics', async () => {
    // The boot's lines come before the app's logger is attached: caught where they are written.
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const t = await createTestApp({ env: { DATABASE_URL: db.url, DATABASE_POOL_SIZE: '1' } });
    try {
      const call = warn.mock.contexts.findIndex((l) => l.context === 'Migrations');
      expect(call).toBeGreaterThanOrEqual(0);
      expect(String(warn.mock.calls[call][0])).toContain(FUTURE);
      const metrics = (await t.http().get('/metrics').expect(200)).text;
      expect(metrics).toMatch(/^database_unknown_migrations 1$/m);
    } finally {
      warn.mockRestore();
      await t.close();
    }
  });
});
