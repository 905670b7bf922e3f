import type { EntityManager } from 'typeorm';

/** What an UPDATE or DELETE did: its RETURNING rows (none without RETURNING) and how many it changed. */
export interface Changed<T> {
  rows: T[];
  affected: number;
}

/**
 * Runs an UPDATE or DELETE through `manager.query`. TypeORM's postgres driver answers those two
 * commands with `[rows, rowCount]` and every other with the rows alone: this is the one reader of
 * that shape, and it refuses any other statement rather than misread it.
 */
export async function changedRows<T = unknown>(
  manager: EntityManager,
  sql: string,
  params: unknown[],
): Promise<Changed<T>> {
  const result: unknown = await manager.query(sql, params);
  if (!Array.isArray(result) || result.length !== 2 || !Array.isArray(result[0])) {
    throw new Error('changedRows runs an UPDATE or DELETE only');
  }
  const [rows, affected] = result as [T[], unknown];
  if (typeof affected !== 'number') throw new Error('changedRows runs an UPDATE or DELETE only');
  return { rows, affected };
}
