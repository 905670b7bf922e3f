import type { Pool, PoolClient, QueryResultRow } from 'pg';
import type { EntityManager } from 'typeorm';

/**
 * The rows a statement returns. In the manager's transaction, run on the connection its query
 * runner holds (`QueryRunner.connect()` hands it over): `manager.query` costs about ten promises
 * and two subscriber broadcasts per statement for nothing on a hot path. A failure there is the
 * driver's error, not TypeORM's QueryFailedError (database-errors.ts reads both). Outside a
 * transaction, on the default manager, straight to the driver's pg pool (its `master`, the pool
 * every query uses) as the health ping does: a query runner for one autocommit statement built
 * an EntityManager and about ten promises (the checkout's insert, bench/findings.md). An UPDATE's
 * rows come back as rows here too, not as `manager.query`'s `[rows, count]`.
 */
export async function transactionRows<T extends QueryResultRow>(
  manager: EntityManager,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  const runner = manager.queryRunner;
  if (runner?.isTransactionActive && !runner.isReleased) {
    const client = (await runner.connect()) as PoolClient;
    return (await client.query<T>(sql, params)).rows;
  }
  const pool = runner ? undefined : (manager.connection.driver as { master?: Pool }).master;
  if (pool) return (await pool.query<T>(sql, params)).rows;
  const own = runner ?? manager.connection.createQueryRunner();
  try {
    return (await own.query(sql, params, true)).records as T[];
  } finally {
    if (own !== runner) await own.release();
  }
}
