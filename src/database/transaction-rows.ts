import type { PoolClient, QueryResultRow } from 'pg';
import type { EntityManager } from 'typeorm';

/**
 * The rows a statement returns. In the manager's transaction, run on the connection its query
 * runner holds (`QueryRunner.connect()` hands it over): `manager.query` costs about ten promises
 * and two subscriber broadcasts per statement for nothing on a hot path. A failure there is the
 * driver's error, not TypeORM's QueryFailedError (database-errors.ts reads both). Outside a
 * transaction, through TypeORM's query runner as usual; its structured result, so an UPDATE's
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
  const own = runner ?? manager.connection.createQueryRunner();
  try {
    return (await own.query(sql, params, true)).records as T[];
  } finally {
    if (own !== runner) await own.release();
  }
}
