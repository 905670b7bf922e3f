import { randomUUID } from 'node:crypto';
import { generateKeyPair, SignJWT } from 'jose';
import { DataSource } from 'typeorm';
import { Session } from '../../src/auth/session/session.entity';
import { Clock } from '../../src/common/clock/clock';
import { User } from '../../src/auth/user.entity';
import { subjectFor } from '../support/auth';
import { capturedLogs, waitForAccessLine } from '../support/captured-logs';
import { createUser } from '../support/factories';
import { FakeClock } from '../support/fake-clock';
import {
  sharedIdentityProvider,
  TEST_AUDIENCE,
  TestIdentityProvider,
} from '../support/identity-provider';
import { createTestApp, TestApp } from '../support/test-app';

interface AuditLine {
  audit?: string;
  reason?: string;
  status?: number;
  code?: string;
  iss?: string;
  sub?: string;
  ip?: string;
  context?: string;
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Sends a token to the real login route and returns the answer with the log lines it left. */
async function attempt(t: TestApp, lines: string[], idToken: string) {
  const from = lines.length;
  const res = await t.http().post('/api/auth/login').send({ id_token: idToken });
  // The access line, the request's last, is written as the response finishes.
  const audit = (await waitForAccessLine<AuditLine>(lines, undefined, { from })).filter(
    (l) => l.audit === 'sign_in_refused',
  );
  const written = lines.slice(from);
  return { res, written, audit };
}

/** Neither the token nor any sizeable part of it (payload, signature) reached a log line. */
function expectNoToken(written: string[], token: string): void {
  const text = written.join('\n');
  expect(text).not.toContain(token);
  for (const part of token.split('.').filter((p) => p.length >= 16)) {
    expect(text).not.toContain(part);
  }
}

describe('POST /api/auth/login: every refusal, its answer and its one audit line', () => {
  let t: TestApp;
  let idp: TestIdentityProvider;
  let user: User;
  const { lines, options } = capturedLogs();
  const clock = new FakeClock();

  beforeAll(async () => {
    idp = await sharedIdentityProvider();
    // A short cooldown on a fake Clock, so the unknown-kid case can move past it for its verdict.
    t = await createTestApp({
      env: { ...options.env, OIDC_JWKS_COOLDOWN_SECONDS: '1' },
      override: (b) => options.override(b).overrideProvider(Clock).useValue(clock),
    });
  });
  beforeEach(async () => {
    user = await createUser(t.app, { role: 'member' });
  });
  afterAll(() => t.close());

  const sessionsOf = (id: string) =>
    t.app.get(DataSource).getRepository(Session).countBy({ userId: id });
  const claims = () => ({ email: user.email, sub: subjectFor(user.email) });
  const now = () => Math.floor(Date.now() / 1000);

  type Case = [
    reason: string,
    make: () => Promise<string>,
    status: number,
    code: string,
    readable: boolean,
  ];
  const cases: Case[] = [
    ['malformed', () => Promise.resolve('not.a.jwt'), 401, 'invalid_id_token', false],
    [
      'bad_signature',
      async () => (await idp.token({ claims: claims() })).replace(/\.[^.]+$/, '.'),
      401,
      'invalid_id_token',
      true,
    ],
    [
      'algorithm_not_allowed',
      async () => {
        const { privateKey } = await generateKeyPair('PS256');
        const payload = { iss: idp.issuer, aud: TEST_AUDIENCE, ...claims(), email_verified: true };
        return new SignJWT(payload)
          .setProtectedHeader({ alg: 'PS256', kid: 'ps' })
          .setIssuedAt()
          .setExpirationTime('1h')
          .sign(privateKey);
      },
      401,
      'invalid_id_token',
      true,
    ],
    [
      'algorithm_not_allowed',
      () => {
        const payload = { iss: idp.issuer, aud: TEST_AUDIENCE, iat: now(), exp: now() + 600 };
        return Promise.resolve(
          `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ ...payload, ...claims() })}.`,
        );
      },
      401,
      'invalid_id_token',
      true,
    ],
    [
      'bad_signature',
      () => idp.token({ claims: claims(), foreignKey: true }),
      401,
      'invalid_id_token',
      true,
    ],
    [
      'unknown_issuer',
      () => idp.token({ claims: { ...claims(), iss: 'https://evil.example' } }),
      401,
      'invalid_id_token',
      true,
    ],
    [
      'wrong_audience',
      () => idp.token({ claims: { ...claims(), aud: 'someone-else' } }),
      401,
      'invalid_id_token',
      true,
    ],
    [
      'wrong_authorized_party',
      () => idp.token({ claims: { ...claims(), aud: [TEST_AUDIENCE, 'someone-else'] } }),
      401,
      'invalid_id_token',
      true,
    ],
    [
      'wrong_authorized_party',
      () =>
        idp.token({
          claims: { ...claims(), aud: [TEST_AUDIENCE, 'someone-else'], azp: 'someone-else' },
        }),
      401,
      'invalid_id_token',
      true,
    ],
    [
      'expired',
      () => idp.token({ claims: claims(), iatOffset: -7200, expOffset: -3600 }),
      401,
      'invalid_id_token',
      true,
    ],
    [
      'not_yet_valid',
      () => idp.token({ claims: claims(), iatOffset: 3600, expOffset: 7200 }),
      401,
      'invalid_id_token',
      true,
    ],
    [
      'missing_claim',
      () => idp.token({ claims: { email: user.email, sub: undefined } }),
      401,
      'invalid_id_token',
      true,
    ],
    [
      'email_not_verified',
      () => idp.token({ claims: { ...claims(), email_verified: false } }),
      403,
      'email_not_verified',
      true,
    ],
    [
      'no_account',
      () => idp.token({ claims: { email: `${randomUUID()}@example.com` } }),
      403,
      'account_not_found',
      true,
    ],
    [
      'no_account',
      () => idp.token({ claims: { sub: randomUUID(), email: undefined } }),
      403,
      'account_not_found',
      true,
    ],
    [
      'disabled',
      async () => {
        await t.app.get(DataSource).getRepository(User).update({ id: user.id }, { disabled: true });
        return idp.token({ claims: claims() });
      },
      403,
      'account_disabled',
      true,
    ],
  ];

  it.each(cases)('%s: %#', async (reason, make, status, code, readable) => {
    const token = await make();
    const { res, written, audit } = await attempt(t, lines, token);
    expect(res.status).toBe(status);
    expect(res.body.code).toBe(code);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await sessionsOf(user.id)).toBe(0);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ context: 'Audit', reason, status, code });
    expect(audit[0].ip).toMatch(/127\.0\.0\.1$/);
    if (readable) expect(audit[0].iss).toBeDefined();
    expectNoToken(written, token);
  });

  it('unknown_key: a kid the provider does not publish, once the cooldown allows a refetch', async () => {
    clock.advance(2); // the earlier cases fetched the keys
    const token = await idp.token({ claims: claims(), kid: 'never-published' });
    const { res, audit } = await attempt(t, lines, token);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_id_token');
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ reason: 'unknown_key', sub: subjectFor(user.email) });
  });

  it('a valid token leaves a sign_in audit line and no refusal', async () => {
    const from = lines.length;
    await t
      .http()
      .post('/api/auth/login')
      .send({ id_token: await idp.token({ claims: claims() }) })
      .expect(200);
    const written = lines.slice(from).map((l) => JSON.parse(l) as AuditLine & { user_id?: string });
    expect(written.filter((l) => l.audit === 'sign_in_refused')).toEqual([]);
    expect(written.filter((l) => l.audit === 'sign_in')).toMatchObject([{ user_id: user.id }]);
  });

  it('an ID token over 16 384 characters is 400 validation_failed naming id_token', async () => {
    const res = await t
      .http()
      .post('/api/auth/login')
      .send({ id_token: 'a'.repeat(16385) });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('validation_failed');
    expect(res.body.errors).toEqual([{ field: 'id_token', message: expect.any(String) }]);
    // 16 384 is still read (and refused as a token, not as a request).
    const edge = await t
      .http()
      .post('/api/auth/login')
      .send({ id_token: 'a'.repeat(16384) });
    expect(edge.status).toBe(401);
  });
});

describe('POST /api/auth/login: refusals the configuration or the provider cause', () => {
  it('not_configured: 503 sign_in_not_configured, and an audit line', async () => {
    const { lines, options } = capturedLogs({
      OIDC_ISSUER: '',
      OIDC_AUDIENCE: '',
      OIDC_JWKS_URI: '',
    });
    const t = await createTestApp(options);
    try {
      const { res, audit } = await attempt(t, lines, 'x.y.z');
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('sign_in_not_configured');
      expect(audit).toMatchObject([{ reason: 'not_configured' }]);
    } finally {
      await t.close();
    }
  });

  it('provider_unavailable: 503 unavailable with Retry-After, and an audit line', async () => {
    const own = await new TestIdentityProvider().start();
    own.available = false;
    const { lines, options } = capturedLogs(own.env());
    const t = await createTestApp(options);
    try {
      const token = await own.token({ claims: { email: 'x@example.com' } });
      const { res, written, audit } = await attempt(t, lines, token);
      expect(res.status).toBe(503);
      expect(res.body.code).toBe('unavailable');
      expect(res.headers['retry-after']).toBe('5');
      expect(audit).toMatchObject([{ reason: 'provider_unavailable', iss: own.issuer }]);
      expectNoToken(written, token);
    } finally {
      await t.close();
      await own.stop();
    }
  });
});
