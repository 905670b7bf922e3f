import type { Pages } from './use-pages';

/** Under a paged table: what is empty, what is loading, and "Load more" while there is more. */
export function ListFooter<T>({ pages, empty }: { pages: Pages<T>; empty: string }) {
  return (
    <>
      {!pages.loading && pages.items.length === 0 && !pages.error && <p>{empty}</p>}
      {pages.loading && <p role="status">Loading…</p>}
      {pages.more && !pages.loading && (
        <button type="button" onClick={pages.loadMore}>
          Load more
        </button>
      )}
    </>
  );
}
