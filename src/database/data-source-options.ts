import { join } from 'node:path';
import type { PostgresDataSourceOptions } from 'typeorm/driver/postgres/PostgresDataSourceOptions';
import { AppConfig } from '../config/app-config';

/** Connection options shared by the app and the TypeORM CLI (ormconfig.ts). */
export function dataSourceOptions(config: AppConfig, url: string): PostgresDataSourceOptions {
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
    logging: false,
    extra: {
      max: config.databasePoolSize,
      // Fail fast when the database is away, so callers get a quick 503 instead of a hang.
      connectionTimeoutMillis: 2000,
      idleTimeoutMillis: 30_000,
      statement_timeout: 15_000,
      application_name: 'device-care-service',
    },
  };
}
