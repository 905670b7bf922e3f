import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Role } from '../../src/common/auth/auth-user';
import { signInWithCodeFlow } from '../../dev-idp/code-flow';
import { createUser, unique } from './factories';
import { startDevIdp, type DevIdpProcess } from './dev-idp';
import { heldPort } from './ports';
import { sessionCookie } from './auth';
import { newFulfilmentOrgId, createFulfilmentOrg } from './subscriptions';
import { createTestApp, type TestApp } from './test-app';

/** The service's own client at the development provider (the console is the second one). */
const SERVICE_CLIENT = 'device-care-test';
export const CONSOLE_CLIENT = 'device-care-console';

/**
 * The world of the console's browser tests: `npm run dev:idp` as a child process, and the real
 * app on a real port trusting it, with the console's client configured and a fulfilment org.
 * The app's port is chosen first: the provider registers `{BASE_URL}/console/callback`.
 */
export interface ConsoleWorld {
  t: TestApp;
  idp: DevIdpProcess;
  base: string;
  fulfilmentOrgId: string;
  /** An account (new org unless given) and a session for it, made through the API's login. */
  session(opts?: { orgId?: string; role?: Role; email?: string }): Promise<Session>;
  close(): Promise<void>;
}

export interface Session {
  email: string;
  orgId: string;
  userId: string;
  /** `name=value` for a Cookie header. */
  cookie: string;
}

/** The provider and the app trusting it, not yet listening (on `base`). */
async function startApp(base: string, env: Record<string, string>) {
  // The provider's console client is its default, CONSOLE_CLIENT.
  const idp = await startDevIdp(SERVICE_CLIENT, { BASE_URL: base });
  if (idp.consoleClientId !== CONSOLE_CLIENT) throw new Error(`dev:idp: ${idp.consoleClientId}`);
  const fulfilmentOrgId = newFulfilmentOrgId();
  const t = await createTestApp({
    env: {
      BASE_URL: base,
      SITE_URL: base,
      OIDC_ISSUER: idp.client.issuer,
      OIDC_AUDIENCE: SERVICE_CLIENT,
      OIDC_JWKS_URI: `${idp.client.issuer}/jwks`,
      CONSOLE_OIDC_CLIENT_ID: CONSOLE_CLIENT,
      FULFILMENT_ORG_ID: fulfilmentOrgId,
      ...env,
    },
  });
  await createFulfilmentOrg(t.app, fulfilmentOrgId);
  return { idp, t, fulfilmentOrgId };
}

export async function startConsoleWorld(env: Record<string, string> = {}): Promise<ConsoleWorld> {
  // Held until the app listens: the provider (seconds to start) must know the app's address first.
  const { port, release } = await heldPort();
  const base = `http://127.0.0.1:${port}`;
  // Released also when the start fails: a held port would keep jest open.
  const { idp, t, fulfilmentOrgId } = await startApp(base, env).finally(release);
  await t.app.listen(port, '127.0.0.1');

  async function session(opts: { orgId?: string; role?: Role; email?: string } = {}) {
    const email = opts.email ?? `${unique('operator')}@example.com`;
    const user = await createUser(t.app, { orgId: opts.orgId, email, role: opts.role ?? 'admin' });
    const idToken = await signInWithCodeFlow(idp.client, email);
    const res = await t.http().post('/api/auth/login').send({ id_token: idToken }).expect(200);
    const cookie = sessionCookie(t, res.headers['set-cookie']);
    if (!cookie) throw new Error('login set no session cookie');
    return { email, orgId: user.orgId, userId: user.id, cookie };
  }

  return {
    t,
    idp,
    base,
    fulfilmentOrgId,
    session,
    close: async () => {
      await t.close();
      await idp.stop();
    },
  };
}

/** A browser context holding `session`'s cookie, as the browser that signed in would. */
export async function contextFor(
  browser: Browser,
  world: ConsoleWorld,
  session: Session | undefined,
  width = 1280,
): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    acceptDownloads: true,
  });
  // A control that never shows fails its own step, named, well before the test's timeout.
  context.setDefaultTimeout(10_000);
  if (session) {
    const [name, value] = [
      session.cookie.slice(0, session.cookie.indexOf('=')),
      session.cookie.slice(session.cookie.indexOf('=') + 1),
    ];
    await context.addCookies([{ name, value, url: world.base, httpOnly: true, sameSite: 'Lax' }]);
  }
  return context;
}

/** Opens a console path and waits for the page's heading. */
export async function openConsole(
  context: BrowserContext,
  world: ConsoleWorld,
  path: string,
  heading: string,
): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${world.base}/console${path}`);
  await page.getByRole('heading', { level: 1, name: heading }).waitFor();
  return page;
}
