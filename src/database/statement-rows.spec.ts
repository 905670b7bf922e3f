import type { DataSource, EntityManager } from 'typeorm';
import { isDatabaseUnavailable } from '../common/errors/database-errors';
import { assertDriverPool, statementRows } from './statement-rows';

const rows = [{ one: 1 }];

/** A manager as TypeORM builds them, with only what statementRows reads. */
function manager(parts: { runner?: object; pool?: object }) {
  const createQueryRunner = jest.fn(() => ({
    query: jest.fn(() => Promise.resolve({ records: rows })),
    release: jest.fn(() => Promise.resolve()),
  }));
  const m = {
    queryRunner: parts.runner,
    dataSource: { isInitialized: true, driver: { master: parts.pool }, createQueryRunner },
  } as unknown as EntityManager;
  return { m, createQueryRunner };
}

describe('statementRows', () => {
  it('sends an autocommit statement straight to the pool, without a query runner', async () => {
    const pool = { query: jest.fn(() => Promise.resolve({ rows })) };
    const { m, createQueryRunner } = manager({ pool });
    await expect(statementRows(m, 'SELECT $1', [1])).resolves.toEqual(rows);
    expect(pool.query).toHaveBeenCalledWith('SELECT $1', [1]);
    expect(createQueryRunner).not.toHaveBeenCalled();
  });

  it("runs a transaction's statement on the connection its runner holds", async () => {
    const client = { query: jest.fn(() => Promise.resolve({ rows })) };
    const runner = { isTransactionActive: true, isReleased: false, connect: () => client };
    const pool = { query: jest.fn() };
    const { m } = manager({ runner, pool });
    await expect(statementRows(m, 'SELECT 1', [])).resolves.toEqual(rows);
    expect(pool.query).not.toHaveBeenCalled();
  });

  it('uses a query runner when the driver has no pool (not connected, or closed)', async () => {
    const { m, createQueryRunner } = manager({});
    await expect(statementRows(m, 'SELECT 1', [])).resolves.toEqual(rows);
    expect(createQueryRunner).toHaveBeenCalled();
  });

  it("lets the pool's failure through as the driver's error, still read as unavailable", async () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    const pool = { query: jest.fn(() => Promise.reject(refused)) };
    const failure: unknown = await statementRows(manager({ pool }).m, 'SELECT 1', []).catch(
      (e: unknown) => e,
    );
    expect(failure).toBe(refused);
    expect(isDatabaseUnavailable(failure)).toBe(true);
  });
});

describe('assertDriverPool', () => {
  const source = (master: unknown) =>
    ({ isInitialized: true, driver: { master } }) as unknown as DataSource;
  const pool = { query: () => undefined, totalCount: 1, idleCount: 1, waitingCount: 0 };

  it("passes a connected source whose driver holds pg's pool", () => {
    expect(() => assertDriverPool(source(pool))).not.toThrow();
  });

  it('fails when the driver keeps no pool where it is read, or something else there', () => {
    const message = "TypeORM's postgres driver holds no pg pool at `driver.master`";
    expect(() => assertDriverPool(source(undefined))).toThrow(message);
    expect(() => assertDriverPool(source({ query: pool.query }))).toThrow(message);
    const closed = { isInitialized: false, driver: { master: pool } } as unknown as DataSource;
    expect(() => assertDriverPool(closed)).toThrow(message);
  });
});
