/** One page of a keyset list, as services return it; controllers map its items to their DTO. */
export interface Page<T> {
  items: T[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}

/** The same page with each item mapped (to a response DTO). */
export function mapPage<T, U>(page: Page<T>, map: (item: T) => U): Page<U> {
  return { items: page.items.map(map), next_cursor: page.next_cursor };
}
