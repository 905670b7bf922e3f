import { Logger } from '@nestjs/common';
import { DataSource, MigrationExecutor } from 'typeorm';
import { ADVISORY_LOCK } from './advisory-locks';

/** Every migration this process applied, in order: the CLI's db:migrate prints what its boot did. */
const appliedHere: string[] = [];

export function migrationsAppliedHere(): readonly string[] {
  return appliedHere;
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
      return names;
    } finally {
      await queryRunner.query('SELECT pg_advisory_unlock($1)', [ADVISORY_LOCK.migrations]);
    }
  } finally {
    await queryRunner.release();
  }
}
