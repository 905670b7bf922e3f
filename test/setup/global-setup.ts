import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../src/config/app-config';
import { dataSourceOptions } from '../../src/database/data-source-options';
import { runMigrationsLocked } from '../../src/database/migrate';
import { emptyDatabase, EmptyDatabase } from '../support/empty-database';
import { TEST_DATA_KEY } from '../support/test-keys';

/** Shared with global-teardown: Jest runs both in the parent process. */
export type E2eDatabase = EmptyDatabase;
declare global {
  var __E2E_DATABASES__: E2eDatabase[] | undefined;
}

/**
 * Migrates a database once, as the app does at boot. Apps in parallel workers would race on an
 * empty embedded database: its one session makes the advisory lock everyone's. (In production one
 * process holds an embedded data directory, so that race cannot happen there.)
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

/**
 * One migrated database per Jest worker, of the run's kind: an embedded server (PGlite in memory)
 * or a fresh database on TEST_DATABASE_URL's server, dropped after the run. Within a worker the
 * specs run one after another, as they did when the suite had one worker: the apps of two specs
 * never poll each other's outgoing deliveries, nor see a table another spec locked.
 */
export default async function globalSetup(globalConfig?: {
  maxWorkers?: number;
  runInBand?: boolean;
}): Promise<void> {
  // The console's specs load its build: made here when missing or stale (`npx jest` skips pretest).
  execFileSync(process.execPath, [join(__dirname, '..', '..', 'scripts', 'console-build.js')], {
    stdio: 'inherit',
  });
  const embedded = !process.env.TEST_DATABASE_URL;
  // `-i` runs every file in this process: one database, not one per worker never started.
  const count = globalConfig?.runInBand ? 1 : Math.max(1, globalConfig?.maxWorkers ?? 1);
  const databases = await Promise.all(
    Array.from({ length: count }, async () => {
      const database = await emptyDatabase();
      await migrate(database.url, embedded);
      return database;
    }),
  );
  globalThis.__E2E_DATABASES__ = databases;
  // Workers are started after this and inherit the variables; test-app.ts picks by JEST_WORKER_ID.
  process.env.E2E_DATABASE_URLS = JSON.stringify(databases.map((d) => d.url));
  process.env.E2E_DATABASE_KIND = embedded ? 'pglite' : 'postgres';
  // The command line reads its key from the environment, as in production: the apps' test key.
  process.env.DATA_ENCRYPTION_KEY ??= TEST_DATA_KEY;
}
