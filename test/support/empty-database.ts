import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { EmbeddedPostgresServer } from '../../src/database/embedded/embedded-postgres.server';

/**
 * The one way tests get a database: of the run's kind, with nothing in it. global-setup makes each
 * worker's one with it; specs that need an empty database (a worker's fills up with other specs'
 * rows) or that lock and kill what they find make their own. A fresh database on
 * TEST_DATABASE_URL's server, or the shipped embedded server on an in-memory PGlite (in its worker
 * thread: PGlite cannot load inside Jest's module registry).
 */
export interface EmptyDatabase {
  url: string;
  stop(): Promise<void>;
}

async function embeddedDatabase(): Promise<EmptyDatabase> {
  const server = new EmbeddedPostgresServer('memory://');
  return { url: await server.start(), stop: () => server.stop() };
}

async function serverDatabase(serverUrl: string): Promise<EmptyDatabase> {
  const name = `dc_e2e_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const run = async (sql: string) => {
    const c = new Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await run(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    stop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

export function emptyDatabase(): Promise<EmptyDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  return serverUrl ? serverDatabase(serverUrl) : embeddedDatabase();
}
