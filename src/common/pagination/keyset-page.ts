import { DomainError } from '../errors/domain.error';
import { ErrorCode } from '../errors/error-code.enum';
import { decodeKeysetCursor, encodeKeysetCursor } from './keyset-cursor';
import { Page } from './page';

/** `?limit=&cursor=` as a service receives them (PageQueryDto checked the limit). */
export interface PageRequest {
  limit: number;
  cursor?: string;
}

/** A list's keyset order: where a row sits in it, and a cursor's fields read back (or refused). */
export interface KeysetOrder<Row, Position extends Record<string, string>> {
  positionOf: (row: Row) => Position;
  read: (fields: Record<string, unknown>) => Position | undefined;
}

/**
 * The one way to serve a keyset page: reads the cursor (400 when it is not this list's), asks
 * `fetch` for one row more than the page (it tells whether another page follows, without a
 * count), and writes `next_cursor` from the page's last row.
 */
export async function keysetPage<Row, Position extends Record<string, string>, Item = Row>(
  page: PageRequest,
  order: KeysetOrder<Row, Position>,
  fetch: (after: Position | undefined, take: number) => Promise<Row[]>,
  view: (row: Row) => Item = (row) => row as unknown as Item, // Item defaults to Row
): Promise<Page<Item>> {
  const after = page.cursor === undefined ? undefined : decodeKeysetCursor(page.cursor, order.read);
  if (page.cursor !== undefined && after === undefined) {
    throw new DomainError(ErrorCode.ValidationFailed, 'Bad cursor.', [
      { field: 'cursor', message: 'cursor is not a next_cursor of this list' },
    ]);
  }
  const rows = await fetch(after, page.limit + 1);
  const items = rows.slice(0, page.limit);
  const more = rows.length > page.limit;
  return {
    items: items.map(view),
    next_cursor: more ? encodeKeysetCursor(order.positionOf(items[items.length - 1])) : null,
  };
}
