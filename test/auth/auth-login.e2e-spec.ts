import { DataSource } from 'typeorm';
import { Session } from '../../src/auth/session/session.entity';
import { User } from '../../src/auth/user.entity';
import { sessionCookie, subjectFor } from '../support/auth';
import { createUser } from '../support/factories';
import {
  sharedIdentityProvider,
  TEST_AUDIENCE,
  TestIdentityProvider,
} from '../support/identity-provider';
import { createTestApp, TestApp } from '../support/test-app';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

describe('POST /api/auth/login: ID token checks', () => {
  let t: TestApp;
  let idp: TestIdentityProvider;
  let user: User;

  beforeAll(async () => {
    idp = await sharedIdentityProvider();
    t = await createTestApp();
  });
  beforeEach(async () => {
    user = await createUser(t.app, { role: 'member' });
  });
  afterAll(() => t.close());

  const sessionsOf = (id: string) =>
    t.app.get(DataSource).getRepository(Session).countBy({ userId: id });
  const claims = () => ({ email: user.email, sub: subjectFor(user.email) });
  const login = (idToken: string) => t.http().post('/api/auth/login').send({ id_token: idToken });

  it('signs in with a valid RS256 token and sets the cookie', async () => {
    const res = await login(await idp.token({ claims: claims() })).expect(200);
    expect(res.body.user).toEqual({
      id: user.id,
      email: user.email,
      name: null,
      org_id: user.orgId,
      role: 'member',
    });
    expect(Date.parse(res.body.session.expires_at)).toBeGreaterThan(Date.now());
    expect(sessionCookie(t, res.headers['set-cookie'])).toBeDefined();
    expect(await sessionsOf(user.id)).toBe(1);
  });

  it('accepts ES256 too', async () => {
    await login(await idp.token({ alg: 'ES256', claims: claims() })).expect(200);
  });

  const rejected: [string, () => Promise<string>][] = [
    ['a wrong audience', () => idp.token({ claims: { ...claims(), aud: 'someone-else' } })],
    ['a wrong issuer', () => idp.token({ claims: { ...claims(), iss: 'https://evil.example' } })],
    ['an expired token', () => idp.token({ claims: claims(), iatOffset: -7200, expOffset: -3600 })],
    // Found by the reliability suite: jose checks iat only with maxTokenAge.
    [
      'a token issued an hour in the future',
      () => idp.token({ claims: claims(), iatOffset: 3600, expOffset: 7200 }),
    ],
    [
      'alg: none',
      () => {
        const now = Math.floor(Date.now() / 1000);
        const payload = { iss: idp.issuer, aud: TEST_AUDIENCE, iat: now, exp: now + 600 };
        return Promise.resolve(
          `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...payload, ...claims(), email_verified: true })}.`,
        );
      },
    ],
    ['a foreign key with the same kid', () => idp.token({ claims: claims(), foreignKey: true })],
    [
      'a tampered payload',
      async () => {
        const [header, , signature] = (await idp.token({ claims: claims() })).split('.');
        const forged = { iss: idp.issuer, aud: TEST_AUDIENCE, ...claims(), exp: 4e9 };
        return `${header}.${b64(forged)}.${signature}`;
      },
    ],
    [
      'a token without a signature',
      async () => (await idp.token({ claims: claims() })).replace(/\.[^.]+$/, '.'),
    ],
    ['garbage', () => Promise.resolve('not.a.jwt')],
  ];

  it.each(rejected)('refuses %s with 401 and creates no session', async (_name, make) => {
    const res = await login(await make());
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_id_token');
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await sessionsOf(user.id)).toBe(0);
  });

  it('links on first login by verified email, then finds the account by issuer + subject only', async () => {
    await login(await idp.token({ claims: claims() })).expect(200);
    // Same email, another subject: not this account any more.
    const other = await login(
      await idp.token({ claims: { email: user.email, sub: 'someone-else' } }),
    );
    expect(other.status).toBe(403);
    expect(other.body.code).toBe('account_not_found');
    // Same subject, the email changed at the provider: still this account.
    const renamed = await login(
      await idp.token({ claims: { email: 'new@example.com', sub: subjectFor(user.email) } }),
    );
    expect(renamed.status).toBe(200);
    expect(renamed.body.user.id).toBe(user.id);
  });

  it('answers 403 account_not_found for a verified identity without an account', async () => {
    const res = await login(await idp.token({ claims: { email: 'nobody@example.com' } }));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('account_not_found');
  });

  it('answers 403 account_disabled for a disabled account', async () => {
    await t.app.get(DataSource).getRepository(User).update({ id: user.id }, { disabled: true });
    const res = await login(await idp.token({ claims: claims() }));
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('account_disabled');
    expect(await sessionsOf(user.id)).toBe(0);
  });

  it('refuses a missing or non-string id_token with 400', async () => {
    expect((await t.http().post('/api/auth/login').send({})).status).toBe(400);
    expect((await t.http().post('/api/auth/login').send({ id_token: 5 })).status).toBe(400);
  });
});

describe('POST /api/auth/login: provider configuration', () => {
  it('answers 503 sign_in_not_configured without OIDC_ISSUER', async () => {
    const t = await createTestApp({
      env: { OIDC_ISSUER: '', OIDC_AUDIENCE: '', OIDC_JWKS_URI: '' },
    });
    try {
      const res = await t.http().post('/api/auth/login').send({ id_token: 'x.y.z' });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('sign_in_not_configured');
    } finally {
      await t.close();
    }
  });

  it('discovers the JWKS from the issuer when OIDC_JWKS_URI is unset', async () => {
    const idp = await sharedIdentityProvider();
    const t = await createTestApp({ env: { OIDC_JWKS_URI: '' } });
    try {
      const user = await createUser(t.app);
      const token = await idp.token({ claims: { email: user.email } });
      await t.http().post('/api/auth/login').send({ id_token: token }).expect(200);
    } finally {
      await t.close();
    }
  });

  it('answers 503 and lets nothing through when the JWKS cannot be fetched', async () => {
    const own = await new TestIdentityProvider().start();
    own.available = false;
    const t = await createTestApp({ env: own.env() });
    try {
      const user = await createUser(t.app);
      const token = await own.token({ claims: { email: user.email } });
      const res = await t.http().post('/api/auth/login').send({ id_token: token });
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('unavailable');
      expect(res.headers['set-cookie']).toBeUndefined();
      // Once the provider is back, the same token works: nothing bad was cached.
      own.available = true;
      await t.http().post('/api/auth/login').send({ id_token: token }).expect(200);
      // Unknown kids inside the cooldown fetch nothing more: the token may be good, so 503.
      const before = own.jwksRequests;
      for (let i = 0; i < 3; i++) {
        const res = await t
          .http()
          .post('/api/auth/login')
          .send({
            id_token: await own.token({ claims: { email: user.email }, kid: `unknown-${i}` }),
          });
        expect(res.status).toBe(503);
        expect(res.body.code).toBe('unavailable');
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      }
      expect(own.jwksRequests - before).toBe(0);
    } finally {
      await t.close();
      await own.stop();
    }
  });
});
