import { createContext, type ReactNode, useCallback, useContext, useEffect, useState } from 'react';
import { api, type Schemas, whenUnauthenticated } from '../api/client';
import { ApiError, data } from '../api/problem';

export interface Session {
  user: Schemas['UserView'];
  org: Schemas['OwnOrgResponse'];
}

export type SessionState =
  | { kind: 'loading' }
  | { kind: 'signed-out'; notice?: string }
  | { kind: 'signed-in'; session: Session }
  | { kind: 'unavailable'; error: unknown };

interface SessionContextValue {
  state: SessionState;
  /** Asks the service again who is signed in (after the callback's login). */
  refresh: () => Promise<void>;
  signOut: () => Promise<void>;
}

const SessionContext = createContext<SessionContextValue | undefined>(undefined);

async function whoIsSignedIn(): Promise<SessionState> {
  try {
    // Both at once: the first page waits for them. Without a session both answer 401.
    const [{ user }, org] = await Promise.all([
      data(api.GET('/api/auth/me')),
      data(api.GET('/api/v1/org')),
    ]);
    return { kind: 'signed-in', session: { user, org } };
  } catch (err) {
    if (err instanceof ApiError && err.status === 401) return { kind: 'signed-out' };
    throw err;
  }
}

/**
 * Who is signed in, from GET /api/auth/me: the session is the HttpOnly cookie, so the page asks.
 * A 401 on any later call shows the sign-in page with a notice, once; signing in is a click, so
 * an expired session can never loop through the provider.
 */
export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ kind: 'loading' });

  const refresh = useCallback(async () => {
    try {
      setState(await whoIsSignedIn());
    } catch (err) {
      setState({ kind: 'unavailable', error: err });
    }
  }, []);

  useEffect(() => {
    whenUnauthenticated(() =>
      setState((s) =>
        s.kind === 'signed-in'
          ? { kind: 'signed-out', notice: 'Your session has ended. Sign in again to go on.' }
          : s,
      ),
    );
    void refresh();
  }, [refresh]);

  const signOut = useCallback(async () => {
    await data(api.POST('/api/auth/logout')).catch(() => undefined);
    setState({ kind: 'signed-out', notice: 'You are signed out.' });
  }, []);

  return (
    <SessionContext.Provider value={{ state, refresh, signOut }}>
      {children}
    </SessionContext.Provider>
  );
}

export function useSession(): SessionContextValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside SessionProvider');
  return value;
}

/** The signed-in session; only for pages rendered inside the signed-in shell. */
export function useSignedIn(): Session {
  const { state } = useSession();
  if (state.kind !== 'signed-in') throw new Error('useSignedIn while not signed in');
  return state.session;
}
