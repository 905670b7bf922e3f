import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { DataSource, EntityManager } from 'typeorm';

/**
 * The rows one statement returns, sent straight to the driver: TypeORM's `manager.query` makes a
 * query runner per statement (about ten promises, an error listener added and removed, two
 * subscriber broadcasts) for nothing on a hot path
 * (docs/decisions/0012-constant-sql-on-hot-paths.md). In the manager's transaction, on the
 * connection its query runner holds
 * (`QueryRunner.connect()` hands it over); on the default manager, on a connection of the pool,
 * which pg takes and gives back around the one statement. A failure is the driver's error, not TypeORM's
 * QueryFailedError (common/errors/database-errors.ts reads both). An UPDATE's RETURNING rows come back as rows,
 * not as `manager.query`'s `[rows, count]`.
 */
export async function statementRows<T extends QueryResultRow>(
  manager: EntityManager,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  const runner = manager.queryRunner;
  if (runner?.isTransactionActive && !runner.isReleased) {
    const client = (await runner.connect()) as PoolClient;
    return (await client.query<T>(sql, params)).rows;
  }
  // A manager of its own query runner (a session lock held on it) keeps to that connection.
  const pool = runner ? undefined : driverPool(manager.dataSource);
  if (pool) return (await pool.query<T>(sql, params)).rows;
  // Not connected (or closing down), or the runner's own connection: TypeORM's path.
  const own = runner ?? manager.dataSource.createQueryRunner();
  try {
    return (await own.query(sql, params, true)).records as T[];
  } finally {
    if (own !== runner) await own.release();
  }
}

/**
 * The pg pool behind TypeORM's postgres driver (`master`, typed `any` there; no replication
 * here), every query's pool, so on the embedded database the one connection behind its gate.
 * None before the source connects or once it closed; while connected, assertDriverPool (run at
 * boot) has proved it is there.
 */
export function driverPool(source: DataSource): Pool | undefined {
  const driver = source.driver as { master?: Pool };
  return source.isInitialized ? driver.master : undefined;
}

/**
 * TypeORM does not publish its pool: fail the boot, not each query, when an upgrade moves it
 * (the health ping, the metrics and statementRows read it through driverPool).
 */
export function assertDriverPool(source: DataSource): void {
  const pool: Partial<Record<keyof Pool, unknown>> | undefined = driverPool(source);
  const found =
    typeof pool?.query === 'function' &&
    typeof pool.totalCount === 'number' &&
    typeof pool.idleCount === 'number' &&
    typeof pool.waitingCount === 'number';
  if (!found) {
    throw new Error("TypeORM's postgres driver holds no pg pool at `driver.master`");
  }
}
