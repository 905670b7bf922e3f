import { subjectFor } from '../support/auth';
import { createUser } from '../support/factories';
import {
  sharedIdentityProvider,
  TEST_AUDIENCE,
  TestIdentityProvider,
} from '../support/identity-provider';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * GET /api/auth/config (contract section 11): what the console's browser needs to start the
 * OpenID Connect flow, public, and nothing else of the configuration. CONSOLE_OIDC_CLIENT_ID is
 * also accepted as an ID token's audience.
 */
describe('GET /api/auth/config and the console client', () => {
  let idp: TestIdentityProvider;
  const apps: TestApp[] = [];
  beforeAll(async () => {
    idp = await sharedIdentityProvider();
  });
  afterAll(() => Promise.all(apps.map((a) => a.close())));

  async function app(env: Record<string, string>): Promise<TestApp> {
    const t = await createTestApp({ env });
    apps.push(t);
    return t;
  }

  it('names the issuer a browser is sent to and the console client id, without a session', async () => {
    // Google's bare spelling first: the browser gets the first spelling that is a URL.
    const t = await app({
      OIDC_ISSUER: `${idp.bareIssuer},${idp.issuer}`,
      CONSOLE_OIDC_CLIENT_ID: 'device-care-console',
    });
    const res = await t.http().get('/api/auth/config').expect(200);
    expect(res.body).toEqual({ issuer: idp.issuer, client_id: 'device-care-console' });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });

  it('answers null for what is not configured', async () => {
    const noConsole = await app({});
    const res = await noConsole.http().get('/api/auth/config').expect(200);
    expect(res.body).toEqual({ issuer: idp.issuer, client_id: null });
    const noSignIn = await app({ OIDC_ISSUER: '', OIDC_AUDIENCE: '', OIDC_JWKS_URI: '' });
    const none = await noSignIn.http().get('/api/auth/config').expect(200);
    expect(none.body).toEqual({ issuer: null, client_id: null });
  });

  it("accepts an ID token issued to the console's client, beside OIDC_AUDIENCE's", async () => {
    const t = await app({ CONSOLE_OIDC_CLIENT_ID: 'device-care-console' });
    const user = await createUser(t.app);
    const token = (aud: string) =>
      idp.token({ claims: { email: user.email, sub: subjectFor(user.email), aud } });
    for (const aud of ['device-care-console', TEST_AUDIENCE]) {
      const res = await t
        .http()
        .post('/api/auth/login')
        .send({ id_token: await token(aud) });
      expect({ aud, status: res.status }).toEqual({ aud, status: 200 });
    }
    const other = await t
      .http()
      .post('/api/auth/login')
      .send({ id_token: await token('someone-else') });
    expect(other.status).toBe(401);
    expect(other.body.code).toBe('invalid_id_token');
    // Without CONSOLE_OIDC_CLIENT_ID, that audience is nobody's.
    const plain = await app({});
    const refused = await plain
      .http()
      .post('/api/auth/login')
      .send({ id_token: await token('device-care-console') });
    expect(refused.status).toBe(401);
  });
});
