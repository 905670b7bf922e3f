import type { PoolClient, QueryResultRow } from 'pg';
import type { EntityManager } from 'typeorm';

/**
 * The rows a statement returns, run in the manager's transaction on the connection its query
 * runner holds (`QueryRunner.connect()` hands it over). `manager.query` costs about ten promises
 * and two subscriber broadcasts per statement for nothing on a hot path; the statement, its
 * transaction and its errors (the driver's, not wrapped in QueryFailedError) are the same.
 * Outside a transaction, `manager.query` as usual (for a SELECT or RETURNING, its rows too).
 */
export function transactionRows<T extends QueryResultRow>(
  manager: EntityManager,
  sql: string,
  params: unknown[],
): Promise<T[]> {
  const runner = manager.queryRunner;
  if (!runner?.isTransactionActive || runner.isReleased) return manager.query<T[]>(sql, params);
  return runner
    .connect()
    .then((client: PoolClient) => client.query<T>(sql, params))
    .then((result) => result.rows);
}
