import { useCallback, useEffect, useState } from 'react';

export interface PageOf<T> {
  items: T[];
  next_cursor: string | null;
}

export interface Pages<T> {
  items: T[];
  error?: unknown;
  loading: boolean;
  /** True while the service has another page. */
  more: boolean;
  loadMore: () => void;
  reload: () => void;
}

/**
 * A keyset-paged list: the first page on each change of `deps`, the next one on loadMore(). A
 * page that arrives after the filter changed is dropped.
 */
export function usePages<T>(
  fetchPage: (cursor: string | undefined) => Promise<PageOf<T>>,
  deps: readonly unknown[],
): Pages<T> {
  const [items, setItems] = useState<T[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [error, setError] = useState<unknown>();
  const [loading, setLoading] = useState(true);
  const [generation, setGeneration] = useState(0);
  // The caller names in `deps` what the fetch reads, as with useEffect.
  const fetchStable = useCallback(fetchPage, deps);

  const load = useCallback(
    (after: string | undefined, replace: boolean, isCurrent: () => boolean) => {
      setLoading(true);
      setError(undefined);
      fetchStable(after).then(
        (page) => {
          if (!isCurrent()) return;
          setItems((old) => (replace ? page.items : [...old, ...page.items]));
          setCursor(page.next_cursor);
          setLoading(false);
        },
        (err: unknown) => {
          if (!isCurrent()) return;
          setError(err);
          setLoading(false);
        },
      );
    },
    [fetchStable],
  );

  useEffect(() => {
    let current = true;
    load(undefined, true, () => current);
    return () => {
      current = false;
    };
  }, [load, generation]);

  return {
    items,
    error,
    loading,
    more: cursor !== null,
    loadMore: () => {
      if (cursor) load(cursor, false, () => true);
    },
    reload: () => setGeneration((g) => g + 1),
  };
}
