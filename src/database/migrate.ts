import { Logger } from '@nestjs/common';
import { DataSource, MigrationExecutor, QueryRunner } from 'typeorm';
import { unknownMigrations } from '../common/metrics/metrics';
import { ADVISORY_LOCK } from './advisory-locks';

/** Every migration this process applied, in order: the CLI's db:migrate prints what its boot did. */
const appliedHere: string[] = [];

export function migrationsAppliedHere(): readonly string[] {
  return appliedHere;
}

/** Migrations the database holds that this release does not ship, as of this process's boot. */
let unknownHere: string[] = [];

export function migrationsUnknownHere(): readonly string[] {
  return unknownHere;
}

/**
 * Applies pending migrations under a PostgreSQL advisory lock, on the lock's own connection, so
 * instances booting together apply each migration once: the others wait, then find nothing to do.
 */
export async function runMigrationsLocked(dataSource: DataSource): Promise<string[]> {
  const queryRunner = dataSource.createQueryRunner();
  try {
    await queryRunner.connect();
    await queryRunner.query('SELECT pg_advisory_lock($1)', [ADVISORY_LOCK.migrations]);
    try {
      const executor = new MigrationExecutor(dataSource, queryRunner);
      executor.transaction = 'all';
      const applied = await executor.executePendingMigrations();
      const names = applied.map((m) => m.name);
      appliedHere.push(...names);
      if (names.length > 0) new Logger('Migrations').log(`Applied ${names.join(', ')}`);
      await noteUnknown(dataSource, queryRunner);
      return names;
    } finally {
      await queryRunner.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK.migrations]);
    }
  } finally {
    await queryRunner.release();
  }
}

/**
 * A newer release migrated this database: rolling deploys run both side by side, so this one
 * keeps going, but says which migrations it does not know (the log, a gauge, db:migrate).
 */
async function noteUnknown(dataSource: DataSource, queryRunner: QueryRunner): Promise<void> {
  const table = dataSource.options.migrationsTableName ?? 'migrations';
  const known = new Set(dataSource.migrations.map((m) => m.name ?? m.constructor.name));
  // TypeORM types raw query results as any; this one is the migrations table's name column.
  const rows = (await queryRunner.query(
    `SELECT name FROM "${table}" ORDER BY "timestamp", id`,
  )) as { name: string }[];
  unknownHere = rows.map((r) => r.name).filter((name) => !known.has(name));
  unknownMigrations.set(unknownHere.length);
  if (unknownHere.length === 0) return;
  new Logger('Migrations').warn(
    `The database holds ${unknownHere.length} migration(s) this release does not know ` +
      `(a newer release ran them): ${unknownHere.join(', ')}`,
  );
}
