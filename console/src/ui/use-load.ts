import { useCallback, useEffect, useState } from 'react';

export interface Loaded<T> {
  value?: T;
  error?: unknown;
  loading: boolean;
  reload: () => void;
}

/** Loads once per change of `deps`, and again on reload(); a late answer never overwrites a newer one. */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loaded<T> {
  const [state, setState] = useState<{ value?: T; error?: unknown; loading: boolean }>({
    loading: true,
  });
  const [round, setRound] = useState(0);
  // The caller names in `deps` what the load reads, as with useEffect.
  const stableLoad = useCallback(load, deps);
  useEffect(() => {
    let current = true;
    setState((s) => ({ ...s, loading: true }));
    stableLoad().then(
      (value) => current && setState({ value, loading: false }),
      (error: unknown) => current && setState({ error, loading: false }),
    );
    return () => {
      current = false;
    };
  }, [stableLoad, round]);
  return { ...state, reload: () => setRound((r) => r + 1) };
}
