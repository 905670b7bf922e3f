import { join } from 'node:path';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { AppConfig } from '../config/app-config';

/**
 * How long a query may wait for the embedded database's one connection. Requests queue for it, one
 * query at a time: 100 concurrent requests of a few queries each drain in a second or two, so 30 s
 * (twice the statement timeout) fails only a database that is stuck, not one that is busy.
 */
const EMBEDDED_ACQUIRE_TIMEOUT_MS = 30_000;

/**
 * Connection options shared by the app and the TypeORM CLI (ormconfig.ts). `embedded`: the URL is
 * our PGlite, one PostgreSQL session, so exactly one connection talks to it (a pool of one).
 */
export function dataSourceOptions(
  config: AppConfig,
  url: string,
  embedded = false,
): PostgresDataSourceOptions {
  return {
    type: 'postgres',
    url,
    // The schema comes only from migrations; CI fails when entities and migrations disagree.
    synchronize: false,
    migrationsRun: false,
    // gen_random_uuid() is built into PostgreSQL 13+, so no extension needs installing.
    uuidExtension: 'pgcrypto',
    installExtensions: false,
    migrations: [join(__dirname, 'migrations', '*.{ts,js}')],
    migrationsTableName: 'migrations',
    // Off, and hot statements skip TypeORM's query runner (statement-rows.ts): turning logging or
    // maxQueryExecutionTime on would not show those statements.
    logging: false,
    extra: {
      max: embedded ? 1 : config.databasePoolSize,
      // A server: fail fast when it is away, so callers get a quick 503 instead of a hang. The
      // embedded one answers a connect at once or not at all (no socket): the wait is the queue.
      connectionTimeoutMillis: embedded ? EMBEDDED_ACQUIRE_TIMEOUT_MS : 2000,
      idleTimeoutMillis: 30_000,
      statement_timeout: 15_000,
      application_name: 'device-care-service',
    },
  };
}
