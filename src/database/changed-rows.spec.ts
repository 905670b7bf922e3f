import type { EntityManager } from 'typeorm';
import { changedRows } from './changed-rows';

const answering = (result: unknown, query = jest.fn().mockResolvedValue(result)) =>
  Object.assign({ query } as unknown as EntityManager, { sent: query });

describe('changedRows', () => {
  it("reads the driver's [rows, count] of an UPDATE or DELETE", async () => {
    const manager = answering([[{ id: 'a' }], 3]);
    await expect(changedRows(manager, 'UPDATE t SET x = $1 RETURNING id', [1])).resolves.toEqual({
      rows: [{ id: 'a' }],
      affected: 3,
    });
    expect(manager.sent).toHaveBeenCalledWith('UPDATE t SET x = $1 RETURNING id', [1]);
    await expect(changedRows(answering([[], 0]), 'DELETE FROM t', [])).resolves.toEqual({
      rows: [],
      affected: 0,
    });
  });

  it.each([
    ['rows of a SELECT', [{ id: 'a' }, { id: 'b' }]],
    ['no rows', []],
    ['a count without rows', [null, 1]],
    ['rows without a count', [[{ id: 'a' }], { n: 1 }]],
  ])('refuses %s rather than misread them', async (_name, result) => {
    await expect(changedRows(answering(result), 'SELECT 1', [])).rejects.toThrow(
      'UPDATE or DELETE only',
    );
  });
});
