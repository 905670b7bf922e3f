import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'dotenv';

/** Defaults of PGLITE_DATA_DIR and DATABASE_POOL_SIZE, shared with env.validation.ts. */
export const DEFAULT_PGLITE_DATA_DIR = '.data/pglite';
export const DEFAULT_DATABASE_POOL_SIZE = 10;

export interface EarlyDatabaseEnv {
  pgliteDataDir: string;
  databasePoolSize: number;
}

/**
 * The embedded database's settings, read before AppConfig exists (validating it loads
 * class-validator, ~0.15 s into the boot) so main.ts can start PGlite at once. A guess, not
 * configuration: EmbeddedPostgres keeps the early start only when the validated AppConfig agrees.
 * Undefined when DATABASE_URL is set, in the environment or in `.env` (read as @nestjs/config
 * reads it: the environment wins), or when the pool size is not a plain number.
 */
export function earlyDatabaseEnv(): EarlyDatabaseEnv | undefined {
  const file = resolve(process.cwd(), '.env');
  const fromFile = existsSync(file) ? parse(readFileSync(file)) : {};
  const read = (name: string): string | undefined =>
    name in process.env ? process.env[name] : fromFile[name];
  if (read('DATABASE_URL')?.trim()) return undefined;
  const pool = read('DATABASE_POOL_SIZE')?.trim();
  const databasePoolSize = pool ? Number(pool) : DEFAULT_DATABASE_POOL_SIZE;
  if (!Number.isInteger(databasePoolSize)) return undefined;
  return { pgliteDataDir: read('PGLITE_DATA_DIR') || DEFAULT_PGLITE_DATA_DIR, databasePoolSize };
}
