import { InMemoryWebStorage, UserManager, WebStorageStateStore } from 'oidc-client-ts';
import { api } from '../api/client';
import { ApiError, data } from '../api/problem';

const CALLBACK_PATH = '/console/callback';
/** The few entries of one sign-in (state, PKCE verifier) while the page is at the provider. */
const STATE_PREFIX = 'console.oidc.';

/**
 * The provider and client the service names (GET /api/auth/config), as an oidc-client-ts
 * manager. Nothing it keeps outlives a sign-in: the user (and its ID token) lives in memory only,
 * and the flow's state, which must survive the trip to the provider, is removed at the callback.
 */
async function manager(): Promise<UserManager> {
  const config = await data(api.GET('/api/auth/config'));
  if (!config.issuer || !config.client_id)
    throw new ApiError(503, {
      title: 'Sign-in is not configured',
      detail: 'The service has no OIDC_ISSUER or CONSOLE_OIDC_CLIENT_ID set.',
    });
  return new UserManager({
    authority: config.issuer,
    client_id: config.client_id,
    redirect_uri: new URL(CALLBACK_PATH, window.location.origin).href,
    response_type: 'code',
    scope: 'openid email profile',
    loadUserInfo: false,
    automaticSilentRenew: false,
    monitorSession: false,
    userStore: new WebStorageStateStore({ store: new InMemoryWebStorage() }),
    stateStore: new WebStorageStateStore({ store: window.sessionStorage, prefix: STATE_PREFIX }),
  });
}

/** Leaves for the provider's sign-in page; back at /console/callback, then at `returnTo`. */
export async function startSignIn(returnTo: string): Promise<void> {
  await (await manager()).signinRedirect({ state: returnTo });
}

/**
 * At /console/callback: trades the code for the ID token (PKCE), posts it to /api/auth/login,
 * which sets the session cookie, and forgets it. Answers where to go next.
 */
export async function finishSignIn(): Promise<string> {
  const oidc = await manager();
  try {
    const user = await oidc.signinRedirectCallback();
    await data(api.POST('/api/auth/login', { body: { id_token: user.id_token ?? '' } }));
    await oidc.removeUser();
    return typeof user.state === 'string' && user.state.startsWith('/') ? user.state : '/';
  } finally {
    forgetFlowState();
  }
}

/** Whatever a sign-in left in sessionStorage, finished or abandoned. */
export function forgetFlowState(): void {
  for (const key of Object.keys(window.sessionStorage))
    if (key.startsWith(STATE_PREFIX)) window.sessionStorage.removeItem(key);
}
