import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { finishSignIn } from '../auth/oidc';
import { useSession } from '../auth/session';
import { SignInPage } from './sign-in.page';

/** /console/callback: the provider sends the browser back here with the code. */
export function CallbackPage() {
  const navigate = useNavigate();
  const { refresh } = useSession();
  const [error, setError] = useState<unknown>();
  // The code can be traded once: a second run (React's development double effects) must not try.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    finishSignIn()
      .then(async (returnTo) => {
        await refresh();
        await navigate(returnTo, { replace: true });
      })
      .catch((err: unknown) => setError(err));
  }, [navigate, refresh]);

  if (error) return <SignInPage error={error} />;
  return (
    <main id="main" className="sign-in">
      <h1>Signing in</h1>
      <p role="status">Finishing the sign-in…</p>
    </main>
  );
}
