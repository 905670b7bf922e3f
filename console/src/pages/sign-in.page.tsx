import { useState } from 'react';
import { useLocation } from 'react-router';
import { startSignIn } from '../auth/oidc';
import { ProblemMessage } from '../ui/problem-message';

/** Shown to anyone without a session: one button, never an automatic trip to the provider. */
export function SignInPage({ notice, error }: { notice?: string; error?: unknown }) {
  const location = useLocation();
  const [failure, setFailure] = useState<unknown>(error);
  const [busy, setBusy] = useState(false);

  async function signIn() {
    setBusy(true);
    setFailure(undefined);
    try {
      const back = location.pathname === '/callback' ? '/' : location.pathname + location.search;
      await startSignIn(back);
    } catch (err) {
      setFailure(err);
      setBusy(false);
    }
  }

  return (
    <main id="main" className="sign-in">
      <h1>Device care console</h1>
      <p>Sign in with your organization’s account to see its devices.</p>
      {notice && <p role="status">{notice}</p>}
      <ProblemMessage error={failure} />
      <button type="button" className="primary" disabled={busy} onClick={() => void signIn()}>
        Sign in
      </button>
    </main>
  );
}
