import { DomainError } from '../errors/domain.error';
import { ErrorCode } from '../errors/error-code.enum';
import { KeysetOrder, keysetPage } from './keyset-page';

const ORDER: KeysetOrder<number, { n: string }> = {
  positionOf: (row) => ({ n: String(row) }),
  read: ({ n }) => (typeof n === 'string' && /^\d+$/.test(n) ? { n } : undefined),
};
const ROWS = [1, 2, 3, 4, 5];
const fetch = (after: { n: string } | undefined, take: number) =>
  Promise.resolve(ROWS.filter((r) => after === undefined || r > Number(after.n)).slice(0, take));

describe('keysetPage', () => {
  it('walks the whole list a page at a time, the last page without a next_cursor', async () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    do {
      const page = await keysetPage({ limit: 2, cursor }, ORDER, fetch, (r) => r);
      seen.push(...page.items);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(ROWS);
  });

  it('asks for one row more than the page, and says there is no more when none came', async () => {
    const asked: number[] = [];
    const page = await keysetPage(
      { limit: 5 },
      ORDER,
      (after, take) => (asked.push(take), fetch(after, take)),
      (r) => r,
    );
    expect(asked).toEqual([6]);
    expect(page).toEqual({ items: ROWS, next_cursor: null });
  });

  it('refuses a cursor that is not this list’s with 400 validation_failed naming cursor', async () => {
    const err = await keysetPage({ limit: 2, cursor: 'nope!' }, ORDER, fetch, (r) => r).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).code).toBe(ErrorCode.ValidationFailed);
    expect((err as DomainError).errors).toEqual([
      { field: 'cursor', message: 'cursor is not a next_cursor of this list' },
    ]);
  });
});
