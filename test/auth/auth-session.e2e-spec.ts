import { DataSource } from 'typeorm';
import { Session } from '../../src/auth/session/session.entity';
import { hashToken } from '../../src/auth/session/session.service';
import { Clock } from '../../src/common/clock/clock';
import { runCli } from '../support/cli';
import { sessionCookie, signIn, subjectFor } from '../support/auth';
import { createOrg, createUser } from '../support/factories';
import { FakeClock } from '../support/fake-clock';
import { sharedIdentityProvider } from '../support/identity-provider';
import { createTestApp, TestApp, testDatabaseUrl } from '../support/test-app';

describe('sessions: cookie, me, refresh, logout', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  const me = (cookie: string) => t.http().get('/api/auth/me').set('Cookie', cookie);

  it('sets an HttpOnly, SameSite=Lax, Path=/ cookie whose Max-Age is the absolute lifetime', async () => {
    const user = await createUser(t.app);
    const idp = await sharedIdentityProvider();
    const res = await t
      .http()
      .post('/api/auth/login')
      .send({ id_token: await idp.token({ claims: { email: user.email } }) })
      .expect(200);
    const line = (res.headers['set-cookie'] as unknown as string[])[0];
    const [pair, ...attributes] = line.split(';').map((s) => s.trim());
    expect(pair).toMatch(/^service_session=[A-Za-z0-9_-]{43}$/);
    expect(attributes).toEqual(
      expect.arrayContaining(['HttpOnly', 'SameSite=Lax', 'Path=/', 'Max-Age=43200']),
    );
    expect(attributes).not.toContain('Secure'); // BASE_URL is http:// in tests
    // The server keeps only the SHA-256 of the token.
    const token = pair.split('=')[1];
    const rows = await t.app.get(DataSource).getRepository(Session).findBy({ userId: user.id });
    expect(rows.map((r) => r.tokenHash)).toEqual([hashToken(token)]);
  });

  it('makes the cookie Secure when BASE_URL is https', async () => {
    const secure = await createTestApp({ env: { BASE_URL: 'https://app.example.com' } });
    try {
      const user = await createUser(secure.app);
      const idp = await sharedIdentityProvider();
      const res = await secure
        .http()
        .post('/api/auth/login')
        .send({ id_token: await idp.token({ claims: { email: user.email } }) })
        .expect(200);
      expect(res.headers['set-cookie'][0]).toMatch(/; Secure/);
    } finally {
      await secure.close();
    }
  });

  it('gives two different tokens for two logins, and me answers the user', async () => {
    const email = 'twice@example.com';
    const a = await signIn(t, { email, role: 'admin' });
    const b = await signIn(t, { email });
    expect(a.cookie).not.toBe(b.cookie);
    const res = await me(a.cookie).expect(200);
    expect(res.body).toEqual({
      user: { id: a.user.id, email, name: null, org_id: a.user.orgId, role: 'admin' },
    });
    await me(b.cookie).expect(200);
  });

  it('answers 401 unauthenticated without a cookie, or with an unknown one', async () => {
    for (const cookie of [undefined, 'service_session=nope', `service_session=${'A'.repeat(43)}`]) {
      const req = t.http().get('/api/auth/me');
      const res = await (cookie ? req.set('Cookie', cookie) : req);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthenticated');
    }
  });

  it('reads a quoted cookie value (RFC 6265) among other cookies, as cookie-parser did', async () => {
    const { cookie } = await signIn(t, {});
    const [name, token] = cookie.split('=');
    await me(`theme=dark; ${name}="${token}"; other=1`).expect(200);
  });

  it('refuses a session cookie sent as a bearer token', async () => {
    const { cookie } = await signIn(t, {});
    const token = cookie.split('=')[1];
    await t.http().get('/api/auth/me').set('Authorization', `Bearer ${token}`).expect(401);
  });

  it('after logout the old cookie gets 401, and the cookie is cleared', async () => {
    const { cookie } = await signIn(t, {});
    const res = await t.http().post('/api/auth/logout').set('Cookie', cookie).expect(204);
    expect(res.headers['set-cookie'][0]).toMatch(/^service_session=;.*Expires=Thu, 01 Jan 1970/);
    await me(cookie).expect(401);
  });

  it('logout answers 204 without a valid session too', async () => {
    await t.http().post('/api/auth/logout').expect(204);
    await t.http().post('/api/auth/logout').set('Cookie', 'service_session=junk').expect(204);
  });

  it('after refresh the old cookie gets 401 and the new one works', async () => {
    const { cookie, user } = await signIn(t, {});
    const res = await t.http().post('/api/auth/refresh').set('Cookie', cookie).expect(200);
    const fresh = sessionCookie(t, res.headers['set-cookie'])!;
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(cookie);
    expect(res.body.user.id).toBe(user.id);
    expect(res.body.session.expires_at).toEqual(expect.any(String));
    await me(cookie).expect(401);
    await me(fresh).expect(200);
    await t.http().post('/api/auth/refresh').set('Cookie', cookie).expect(401);
  });

  it("stops a disabled account's sessions at once", async () => {
    const { cookie, user } = await signIn(t, {});
    await me(cookie).expect(200);
    await t.app.get(DataSource).query('UPDATE users SET disabled = true WHERE id = $1', [user.id]);
    await me(cookie).expect(401);
  });
});

describe('sessions: idle and absolute expiry on a controllable clock', () => {
  const clock = new FakeClock();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { SESSION_IDLE_TTL_SECONDS: '600', SESSION_ABSOLUTE_TTL_SECONDS: '3600' },
      override: (b) => b.overrideProvider(Clock).useValue(clock),
    });
  });
  afterAll(() => t.close());

  const me = (cookie: string) => t.http().get('/api/auth/me').set('Cookie', cookie);

  it('ends a session unused for longer than the idle lifetime', async () => {
    const { cookie } = await signIn(t, {});
    clock.advance(590);
    await me(cookie).expect(200); // use renews the idle window
    clock.advance(590);
    await me(cookie).expect(200);
    clock.advance(601);
    await me(cookie).expect(401);
  });

  it('ends a session at its absolute lifetime however much it is used, refresh included', async () => {
    const { cookie } = await signIn(t, {});
    let current = cookie;
    for (let elapsed = 0; elapsed < 3500; elapsed += 500) {
      clock.advance(500);
      const res = await t.http().post('/api/auth/refresh').set('Cookie', current).expect(200);
      current = sessionCookie(t, res.headers['set-cookie'])!;
      // The new cookie lives only as long as what is left of the sign-in.
      const maxAge = Number(/Max-Age=(\d+)/.exec(res.headers['set-cookie'][0])![1]);
      expect(maxAge).toBe(3600 - elapsed - 500);
    }
    await me(current).expect(200);
    clock.advance(101);
    await me(current).expect(401);
  });
});

describe('sessions: an administrator moves an account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    process.env.DATABASE_URL = testDatabaseUrl();
    process.env.DATABASE_POOL_SIZE = '2';
  });
  afterAll(() => t.close());

  it('after user:move, me shows the new org at once and refresh returns it', async () => {
    const { cookie, user } = await signIn(t, { role: 'member' });
    const target = await createOrg(t.app);
    // The CLI writes its audit lines on stderr (stdout is the command's one JSON answer).
    const result = await runCli([
      'user:move',
      '--email',
      user.email,
      '--org',
      target.id,
      '--role',
      'admin',
    ]);
    expect(result).toMatchObject({ code: 0 });
    const audit = result.logs;
    expect(audit).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          audit: 'account_moved',
          actor: 'cli',
          user_id: user.id,
          to: target.id,
        }),
        expect.objectContaining({
          audit: 'role_changed',
          actor: 'cli',
          from: 'member',
          to: 'admin',
        }),
      ]),
    );
    const me = await t.http().get('/api/auth/me').set('Cookie', cookie).expect(200);
    expect(me.body.user).toMatchObject({ org_id: target.id, role: 'admin' });
    const refreshed = await t.http().post('/api/auth/refresh').set('Cookie', cookie).expect(200);
    expect(refreshed.body.user).toMatchObject({ org_id: target.id, role: 'admin' });
  });

  it('user:add creates an account that can sign in with a verified email', async () => {
    const org = await createOrg(t.app);
    const email = `added-${Date.now()}@example.com`;
    const result = await runCli([
      'user:add',
      '--org',
      org.id,
      '--email',
      email,
      '--role',
      'member',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout!)).toMatchObject({ email, org_id: org.id, role: 'member' });
    const idp = await sharedIdentityProvider();
    const token = await idp.token({ claims: { email, sub: subjectFor(email) } });
    const res = await t.http().post('/api/auth/login').send({ id_token: token }).expect(200);
    expect(res.body.user.org_id).toBe(org.id);
  });

  it('user:add and user:move exit 1 with the reason', async () => {
    const bad = await runCli(['user:add', '--org', 'nope', '--email', 'a@b.c', '--role', 'member']);
    expect(bad).toMatchObject({ code: 1 });
    const role = await runCli(['user:add', '--org', 'nope', '--email', 'a@b.c', '--role', 'owner']);
    expect(role.code).toBe(1);
    const missing = await runCli([
      'user:move',
      '--email',
      'ghost@example.com',
      '--org',
      (await createOrg(t.app)).id,
    ]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No account/);
  });
});
