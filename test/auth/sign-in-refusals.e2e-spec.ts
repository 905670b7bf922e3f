import { Clock } from '../../src/common/clock/clock';
import { subjectFor } from '../support/auth';
import { capturedLogs } from '../support/captured-logs';
import { createUser } from '../support/factories';
import { FakeClock } from '../support/fake-clock';
import { TestIdentityProvider } from '../support/identity-provider';
import { createTestApp, TestApp } from '../support/test-app';

const COOLDOWN_SECONDS = 30;

/**
 * Tokens nobody can make good: a foreign issuer, a kid the provider has been asked about and does
 * not publish. They are 401 every time (never a stream of 503s), and their log lines are few.
 */
describe('POST /api/auth/login: refusals that cannot become good', () => {
  let idp: TestIdentityProvider;
  let t: TestApp;
  let logs: ReturnType<typeof capturedLogs>;
  let clock: FakeClock;

  beforeEach(async () => {
    idp = await new TestIdentityProvider().start();
    logs = capturedLogs({ ...idp.env(), OIDC_JWKS_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS) });
    clock = new FakeClock();
    t = await createTestApp({
      env: logs.options.env,
      // The cooldown runs on the Clock: the test moves it instead of waiting.
      override: (b) => logs.options.override(b).overrideProvider(Clock).useValue(clock),
    });
  });
  afterEach(async () => {
    await t.close();
    await idp.stop();
  });

  const login = (idToken: string) => t.http().post('/api/auth/login').send({ id_token: idToken });
  const refusals = (reason: string) =>
    logs.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.audit === 'sign_in_refused' && l.reason === reason);

  it('a foreign issuer is 401 invalid_id_token at once, without asking for keys', async () => {
    const token = await idp.token({
      foreignKey: true,
      kid: 'attacker-kid',
      claims: { iss: 'https://evil.example' },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await login(token);
      statuses.push(res.status);
      expect(res.body.code).toBe('invalid_id_token');
    }
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect(idp.jwksRequests).toBe(0);
    // Refusal lines are rate-limited per reason: a few a minute, not one per try.
    expect(refusals('unknown_issuer').length).toBeGreaterThan(0);
    expect(refusals('unknown_issuer').length).toBeLessThanOrEqual(5);
  });

  it('a wrong audience or a token that is no JWT is 401 without asking for keys', async () => {
    const token = await idp.token({ foreignKey: true, kid: 'x', claims: { aud: 'someone-else' } });
    expect((await login(token)).status).toBe(401);
    expect((await login('a.b.c')).status).toBe(401);
    expect(idp.jwksRequests).toBe(0);
  });

  it('a kid a refetch has shown absent is 401 every time, inside the cooldown too', async () => {
    const user = await createUser(t.app);
    const good = await idp.token({ claims: { email: user.email, sub: subjectFor(user.email) } });
    expect((await login(good)).status).toBe(200); // the keys were just fetched
    clock.advance(COOLDOWN_SECONDS + 1);
    const forged = await idp.token({
      foreignKey: true,
      kid: 'never-published',
      claims: { email: user.email, sub: subjectFor(user.email) },
    });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push((await login(forged)).status);
    expect(statuses).toEqual(Array(10).fill(401));
    // A kid nobody has asked about yet may still get the contract's 503 inside the cooldown.
    const unchecked = await idp.token({
      foreignKey: true,
      kid: 'not-checked-yet',
      claims: { email: user.email, sub: subjectFor(user.email) },
    });
    const res = await login(unchecked);
    expect(res.status).toBe(503);
    expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });
});
