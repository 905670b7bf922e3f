/** One page of a keyset list, as services return it; controllers map its items to their DTO. */
export interface Page<T> {
  items: T[];
  /** Pass as `cursor` for the next page; null on the last page. */
  next_cursor: string | null;
}
