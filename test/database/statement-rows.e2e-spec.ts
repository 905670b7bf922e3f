import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { statementRows } from '../../src/database/statement-rows';
import { createTestApp, TestApp } from '../support/test-app';

describe('statementRows: one statement without a query runner', () => {
  let t: TestApp;
  let source: DataSource;
  beforeAll(async () => {
    t = await createTestApp();
    source = t.app.get(DataSource);
  });
  afterAll(() => t.close());

  it('answers rows on a pooled connection outside a transaction, and gives it back', async () => {
    const rows = await statementRows<{ n: number; at: Date }>(
      source.manager,
      'SELECT $1::int AS n, now() AS at',
      [7],
    );
    expect(rows).toEqual([{ n: 7, at: expect.any(Date) }]);
    // Each call returns its connection: more calls than the pool holds still all answer.
    const many = await Promise.all(
      Array.from({ length: 25 }, (_, i) =>
        statementRows(source.manager, 'SELECT $1::int AS i', [i]),
      ),
    );
    expect(many.map(([row]) => row)).toEqual(Array.from({ length: 25 }, (_, i) => ({ i })));
  });

  it('runs on the transaction connection inside one: it sees the rows not yet committed', async () => {
    const id = randomUUID();
    const insert = `INSERT INTO organizations (id, name, created_at)
      VALUES ($1, 'statement rows', now()) RETURNING id`;
    const seen = await source.transaction(async (m) => {
      await statementRows(m, insert, [id]);
      return statementRows(m, 'SELECT id FROM organizations WHERE id = $1', [id]);
    });
    expect(seen).toEqual([{ id }]);
  });

  it('returns the rows of an UPDATE ... RETURNING as rows, and the driver error on a fault', async () => {
    const none = await statementRows(
      source.manager,
      'UPDATE organizations SET name = name WHERE id = $1 RETURNING id',
      [randomUUID()],
    );
    expect(none).toEqual([]);
    await expect(statementRows(source.manager, 'SELECT 1/0', [])).rejects.toMatchObject({
      code: '22012',
    });
  });
});
