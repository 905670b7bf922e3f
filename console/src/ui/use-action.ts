import { useState } from 'react';

export interface Action {
  notice?: string;
  failure?: unknown;
  /** Runs a change; its answer is the notice to show, its error the problem to show instead. */
  run: (change: () => Promise<string>) => Promise<void>;
}

/** A page's buttons that change something: one notice or one problem at a time, in words. */
export function useAction(after?: () => void): Action {
  const [notice, setNotice] = useState<string>();
  const [failure, setFailure] = useState<unknown>();
  async function run(change: () => Promise<string>) {
    setFailure(undefined);
    setNotice(undefined);
    try {
      setNotice(await change());
      after?.();
    } catch (err) {
      setFailure(err);
    }
  }
  return { notice, failure, run };
}
