import { DataSource } from 'typeorm';
import { AppConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { runMigrationsLocked } from '../../src/database/migrate';
import { emptyDatabase, EmptyDatabase } from '../support/empty-database';

/** Shared with global-teardown: Jest runs both in the parent process. */
export type E2eDatabase = EmptyDatabase;
declare global {
  var __E2E_DATABASE__: E2eDatabase | undefined;
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
  // One embedded server (PGlite in memory) that every jest worker and app of the run shares, as
  // the gate lets them; or a fresh database on TEST_DATABASE_URL's server, dropped after the run.
  const database = await emptyDatabase();
  await migrate(database.url, !serverUrl);
  globalThis.__E2E_DATABASE__ = database;
  // Workers are started after this and inherit the variable.
  process.env.E2E_DATABASE_URL = database.url;
  process.env.E2E_DATABASE_KIND = serverUrl ? 'postgres' : 'pglite';
}
