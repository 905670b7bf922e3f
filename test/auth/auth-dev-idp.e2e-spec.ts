import { once } from 'node:events';
import { authorizationRequest, discover, signInWithCodeFlow } from '../../dev-idp/code-flow';
import { sessionCookie } from '../support/auth';
import { runDevIdp, DevIdpProcess, startDevIdp } from '../support/dev-idp';
import { createOrg, createUser, unique } from '../support/factories';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Sign-in against a real OpenID Connect provider (`npm run dev:idp`, built on oidc-provider), the
 * way a dashboard does it: the authorization code flow with PKCE, then the ID token to
 * POST /api/auth/login. Keys come from the provider's discovery document, as with Google.
 */
describe('sign-in through the development provider (code flow + PKCE)', () => {
  let idp: DevIdpProcess;
  let t: TestApp;

  /** Where the service (and so the console) is, as the provider reads it from BASE_URL. */
  const SERVICE = 'http://localhost:3999';
  beforeAll(async () => {
    idp = await startDevIdp('device-care-e2e', { BASE_URL: SERVICE });
    t = await createTestApp({
      env: {
        OIDC_ISSUER: idp.client.issuer,
        OIDC_AUDIENCE: idp.client.clientId,
        CONSOLE_OIDC_CLIENT_ID: idp.consoleClientId,
        OIDC_JWKS_URI: '',
        METRICS_TOKEN: 'operator-token-0123456789',
      },
    });
  }, 90_000);
  afterAll(async () => {
    await t?.close();
    await idp?.stop();
  });

  it('signs an admin in, then me, refresh and logout work with the real session', async () => {
    const org = await createOrg(t.app);
    const email = `${unique('admin')}@example.com`;
    const admin = await createUser(t.app, { orgId: org.id, email, role: 'admin' });

    const idToken = await signInWithCodeFlow(idp.client, email);
    const login = await t.http().post('/api/auth/login').send({ id_token: idToken });
    expect(login.status).toBe(200);
    expect(login.body.user).toMatchObject({ id: admin.id, org_id: org.id, role: 'admin' });
    const cookie = sessionCookie(t, login.headers['set-cookie'])!;

    const me = await t.http().get('/api/auth/me').set('Cookie', cookie).expect(200);
    expect(me.body.user).toMatchObject({ id: admin.id, email, name: email.split('@')[0] });
    const refreshed = await t.http().post('/api/auth/refresh').set('Cookie', cookie).expect(200);
    const renewed = sessionCookie(t, refreshed.headers['set-cookie'])!;
    await t.http().get('/api/auth/me').set('Cookie', cookie).expect(401);
    await t.http().post('/api/auth/logout').set('Cookie', renewed).expect(204);
    await t.http().get('/api/auth/me').set('Cookie', renewed).expect(401);

    // A second sign-in finds the account by issuer + subject, not by email.
    const again = await signInWithCodeFlow(idp.client, email);
    await t.http().post('/api/auth/login').send({ id_token: again }).expect(200);
  });

  it('refuses an email the provider has not verified with 403 email_not_verified', async () => {
    const user = await createUser(t.app);
    const idToken = await signInWithCodeFlow(idp.client, user.email, { verified: false });
    const res = await t.http().post('/api/auth/login').send({ id_token: idToken });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('email_not_verified');
  });

  it('an identity without an account is 403 account_not_found', async () => {
    const idToken = await signInWithCodeFlow(idp.client, `${unique('nobody')}@example.com`);
    const res = await t.http().post('/api/auth/login').send({ id_token: idToken });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('account_not_found');
  });

  it('registers the console: a PKCE code flow back to {BASE_URL}/console/callback signs in', async () => {
    expect(idp.consoleClientId).toBe('device-care-console');
    const user = await createUser(t.app);
    for (const base of [SERVICE, 'http://127.0.0.1:3999']) {
      const console = {
        issuer: idp.client.issuer,
        clientId: idp.consoleClientId,
        redirectUri: `${base}/console/callback`,
      };
      // The code is exchanged as the console's fetch does it, from the service's origin.
      const idToken = await signInWithCodeFlow(console, user.email, { origin: base });
      const login = await t.http().post('/api/auth/login').send({ id_token: idToken });
      expect({ base, status: login.status }).toEqual({ base, status: 200 });
      expect(login.body.user).toMatchObject({ id: user.id });
    }
  });

  it("lets the console's origin fetch discovery, the keys and the token endpoint (CORS)", async () => {
    const { issuer } = idp.client;
    const discovery = await fetch(`${issuer}/.well-known/openid-configuration`, {
      headers: { Origin: SERVICE },
    });
    expect(discovery.headers.get('access-control-allow-origin')).toBe(SERVICE);
    const endpoints = (await discovery.json()) as { token_endpoint: string; jwks_uri: string };
    const keys = await fetch(endpoints.jwks_uri, { headers: { Origin: SERVICE } });
    expect(keys.headers.get('access-control-allow-origin')).toBe(SERVICE);
    const preflight = await fetch(endpoints.token_endpoint, {
      method: 'OPTIONS',
      headers: {
        Origin: SERVICE,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe(SERVICE);
    expect(preflight.headers.get('access-control-allow-methods')).toMatch(/POST/);
    // Another site cannot trade the console's code: the token endpoint refuses its origin.
    const console = {
      issuer,
      clientId: idp.consoleClientId,
      redirectUri: `${SERVICE}/console/callback`,
    };
    const user = await createUser(t.app);
    await expect(
      signInWithCodeFlow(console, user.email, { origin: 'https://elsewhere.example' }),
    ).rejects.toThrow(/answered 400 invalid_request/);
  });

  it('refuses a console sign-in without PKCE', async () => {
    const console = {
      issuer: idp.client.issuer,
      clientId: idp.consoleClientId,
      redirectUri: `${SERVICE}/console/callback`,
    };
    const { authorization_endpoint } = await discover(idp.client.issuer);
    const request = authorizationRequest(authorization_endpoint, console);
    const url = new URL(request.url);
    url.searchParams.delete('code_challenge');
    url.searchParams.delete('code_challenge_method');
    const res = await fetch(url, { redirect: 'manual' });
    // oidc-provider sends the error back to the client's redirect URI.
    const location = new URL(res.headers.get('location') ?? '', url);
    expect(location.href.startsWith(`${SERVICE}/console/callback?`)).toBe(true);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('its discovery document names the issuer the service trusts: no warning', async () => {
    const res = await t
      .http()
      .get('/health')
      .set('Authorization', 'Bearer operator-token-0123456789')
      .expect(200);
    expect(res.body.details.sign_in).toEqual({
      configured: true,
      discovered_issuer: idp.client.issuer,
      warnings: [],
    });
  });
});

describe('npm run dev:idp', () => {
  it('refuses to start with NODE_ENV=production', async () => {
    const { child, output } = runDevIdp(['--port', '0'], {
      NODE_ENV: 'production',
      DEVICE_TOKEN_SECRET: 'x'.repeat(32),
    });
    const [code] = (await once(child, 'exit')) as [number];
    expect(code).toBe(1);
    expect(output().stderr).toContain('refuses to run with NODE_ENV=production');
    expect(output().stdout).not.toContain('Development identity provider');
  }, 60_000);
});
