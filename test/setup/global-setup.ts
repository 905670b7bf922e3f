import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { EmbeddedPostgresServer } from '../../src/database/embedded-postgres.server';
import { runMigrationsLocked } from '../../src/database/migrate';

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

/**
 * The shipped embedded server (Unix socket, one connection at a time), PGlite in memory: every
 * jest worker and every app of the run shares it, as the gate lets them.
 */
async function embeddedDatabase(): Promise<E2eDatabase> {
  const server = new EmbeddedPostgresServer('memory://');
  return { url: await server.start(), stop: () => server.stop() };
}

/**
 * Migrates the run's database once, as the app does at boot. Apps in parallel workers would race
 * on an empty embedded database: its one session makes the advisory lock everyone's. (In
 * production one process holds an embedded data directory, so that race cannot happen there.)
 */
async function migrate(url: string, embedded: boolean): Promise<void> {
  const config = AppConfig.fromEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent' });
  const dataSource = await new DataSource(dataSourceOptions(config, url, embedded)).initialize();
  try {
    await runMigrationsLocked(dataSource);
  } finally {
    await dataSource.destroy();
  }
}

export default async function globalSetup(): Promise<void> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  const database = serverUrl ? await freshServerDatabase(serverUrl) : await embeddedDatabase();
  await migrate(database.url, !serverUrl);
  globalThis.__E2E_DATABASE__ = database;
  // Workers are started after this and inherit the variable.
  process.env.E2E_DATABASE_URL = database.url;
  process.env.E2E_DATABASE_KIND = serverUrl ? 'postgres' : 'pglite';
}
