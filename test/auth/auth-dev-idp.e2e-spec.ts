import { once } from 'node:events';
import { signInWithCodeFlow } from '../../dev-idp/code-flow';
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

  beforeAll(async () => {
    idp = await startDevIdp('device-care-e2e');
    t = await createTestApp({
      env: {
        OIDC_ISSUER: idp.client.issuer,
        OIDC_AUDIENCE: idp.client.clientId,
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
