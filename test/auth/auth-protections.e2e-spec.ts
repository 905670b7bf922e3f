import { sessionCookie, signIn, subjectFor } from '../support/auth';
import { createUser } from '../support/factories';
import { sharedIdentityProvider } from '../support/identity-provider';
import { capturedLogs } from '../support/captured-logs';
import { routes } from '../support/routes';
import { createTestApp, TestApp } from '../support/test-app';

describe('every /api/v1 route needs a session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  /** Routes under /api/v1 that say they are public. None so far. */
  const PUBLIC: string[] = [];

  it('answers 401 unauthenticated on each, without a cookie and with a revoked one', async () => {
    const { cookie } = await signIn(t, { role: 'admin' });
    await t.http().post('/api/auth/logout').set('Cookie', cookie).expect(204);
    const v1 = routes(t).filter(([, path]) => path.startsWith('/api/v1/'));
    expect(v1.length).toBeGreaterThanOrEqual(4); // org, users (list, create, update)
    for (const [method, path] of v1) {
      if (PUBLIC.includes(`${method} ${path}`)) continue;
      const url = path.replace(/:[A-Za-z_]+/g, '00000000-0000-4000-8000-000000000000');
      for (const withCookie of [false, true]) {
        let req = t.http()[method.toLowerCase() as 'get'](url);
        if (withCookie) req = req.set('Cookie', cookie);
        const res = method === 'GET' ? await req : await req.send({});
        expect({ route: `${method} ${path}`, status: res.status, code: res.body.code }).toEqual({
          route: `${method} ${path}`,
          status: 401,
          code: 'unauthenticated',
        });
      }
    }
  });
});

describe('cookie routes that change state refuse cross-site requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses a foreign Origin and Sec-Fetch-Site: cross-site with 403, even with a valid cookie', async () => {
    const admin = await signIn(t, { role: 'admin' });
    const body = { email: 'csrf@example.com', role: 'admin' };
    const attempts = [
      { Origin: 'https://evil.example' },
      { 'Sec-Fetch-Site': 'cross-site' },
      { Origin: 'http://localhost:3000', 'Sec-Fetch-Site': 'cross-site' },
    ];
    for (const headers of attempts) {
      for (const [path, send] of [
        ['/api/v1/users', body],
        ['/api/auth/refresh', undefined],
        ['/api/auth/logout', undefined],
      ] as const) {
        const res = await t.http().post(path).set('Cookie', admin.cookie).set(headers).send(send);
        expect({ path, status: res.status, code: res.body.code }).toEqual({
          path,
          status: 403,
          code: 'forbidden',
        });
      }
    }
    // The session survived all of it, and an allowed origin gets through.
    await t
      .http()
      .post('/api/v1/users')
      .set('Cookie', admin.cookie)
      .set({ Origin: 'http://localhost:3000', 'Sec-Fetch-Site': 'same-origin' })
      .send(body)
      .expect(201);
  });

  it('refuses a cross-site login, and a body that is not JSON', async () => {
    const user = await createUser(t.app);
    const idp = await sharedIdentityProvider();
    const token = await idp.token({ claims: { email: user.email, sub: subjectFor(user.email) } });
    const foreign = await t
      .http()
      .post('/api/auth/login')
      .set('Origin', 'https://evil.example')
      .send({ id_token: token });
    expect(foreign.status).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    const form = await t
      .http()
      .post('/api/auth/login')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send(`id_token=${token}`);
    expect(form.status).toBe(415);
    const { cookie } = await signIn(t, { email: user.email });
    const textPlain = await t
      .http()
      .post('/api/auth/refresh')
      .set('Cookie', cookie)
      .set('Content-Type', 'text/plain');
    expect(textPlain.status).toBe(415);
  });
});

describe('login rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_LOGIN_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  it('allows the configured logins a minute per client address, then 429', async () => {
    for (let i = 0; i < 3; i++) {
      await t.http().post('/api/auth/login').send({ id_token: 'a.b.c' }).expect(401);
    }
    const res = await t.http().post('/api/auth/login').send({ id_token: 'a.b.c' });
    expect(res.status).toBe(429);
    expect(res.body.code).toBe('rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  });
});

describe('the session token never leaves in a body or a log line', () => {
  const { lines, options } = capturedLogs();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(options);
  });
  afterAll(() => t.close());

  it('is absent from every response body and every captured log line', async () => {
    const user = await createUser(t.app, { role: 'admin' });
    const idp = await sharedIdentityProvider();
    const idToken = await idp.token({ claims: { email: user.email, sub: subjectFor(user.email) } });
    const login = await t.http().post('/api/auth/login').send({ id_token: idToken }).expect(200);
    const first = sessionCookie(t, login.headers['set-cookie'])!;
    const me = await t.http().get('/api/auth/me').set('Cookie', first).expect(200);
    const refresh = await t.http().post('/api/auth/refresh').set('Cookie', first).expect(200);
    const second = sessionCookie(t, refresh.headers['set-cookie'])!;
    const denied = await t.http().get('/api/auth/me').set('Cookie', first).expect(401);
    const logout = await t.http().post('/api/auth/logout').set('Cookie', second).expect(204);

    const tokens = [first, second].map((c) => c.split('=')[1]);
    const bodies = [login, me, refresh, denied, logout].map((r) => r.text);
    const logged = lines.join('');
    expect(lines.length).toBeGreaterThanOrEqual(5); // the capture works: one line per request at least
    expect(logged).toContain('/api/auth/refresh');
    for (const token of tokens) {
      for (const body of bodies) expect(body).not.toContain(token);
      expect(logged).not.toContain(token);
    }
    expect(logged).not.toContain(idToken);
  });
});
