import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { Client } from 'pg';

/** Shared with global-teardown: Jest runs both in the parent process. */
export interface E2eDatabase {
  url: string;
  stop(): Promise<void>;
}
declare global {
  var __E2E_DATABASE__: E2eDatabase | undefined;
}

/** A fresh database on the server named by TEST_DATABASE_URL, dropped after the run. */
async function freshServerDatabase(serverUrl: string): Promise<E2eDatabase> {
  const name = `dc_e2e_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const admin = new Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    stop: async () => {
      const c = new Client({ connectionString: serverUrl });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

/** PGlite in memory behind a socket, reached by the app through the ordinary pg driver. */
async function embeddedDatabase(): Promise<E2eDatabase> {
  const db = await PGlite.create('memory://');
  const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 64 });
  await server.start();
  const [, port] = server.getServerConn().split(':');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

export default async function globalSetup(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const database = serverUrl ? await freshServerDatabase(serverUrl) : await embeddedDatabase();
  globalThis.__E2E_DATABASE__ = database;
  // Workers are started after this and inherit the variable.
  process.env.E2E_DATABASE_URL = database.url;
  process.env.E2E_DATABASE_KIND = serverUrl ? 'postgres' : 'pglite';
}
