import { Clock } from '../../src/common/clock/clock';
import { subjectFor } from '../support/auth';
import { createUser } from '../support/factories';
import { FakeClock } from '../support/fake-clock';
import { TestIdentityProvider } from '../support/identity-provider';
import { createTestApp, TestApp } from '../support/test-app';

const COOLDOWN_SECONDS = 30;

/**
 * A provider publishes a new signing key and signs with it at once. The service has never seen
 * the kid: it refetches the key set (200), or, when it fetched it too recently to fetch again,
 * answers 503 with Retry-After and signs the user in when asked again after that long. Never 401.
 * The cooldown runs on the Clock, so the test moves a fake one instead of waiting.
 */
describe('POST /api/auth/login: the provider rotates its signing key', () => {
  let own: TestIdentityProvider;
  let t: TestApp;
  let clock: FakeClock;

  beforeEach(async () => {
    own = await new TestIdentityProvider().start();
    clock = new FakeClock();
    t = await createTestApp({
      env: { ...own.env(), OIDC_JWKS_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS) },
      override: (b) => b.overrideProvider(Clock).useValue(clock),
    });
  });
  afterEach(async () => {
    await t.close();
    await own.stop();
  });

  async function signInWithNewestKey(email: string) {
    const token = await own.token({ claims: { email, sub: subjectFor(email) } });
    return t.http().post('/api/auth/login').send({ id_token: token });
  }

  it('refetches the keys for the new kid and signs in at once (200) after the cooldown', async () => {
    const user = await createUser(t.app);
    expect((await signInWithNewestKey(user.email)).status).toBe(200);
    clock.advance(COOLDOWN_SECONDS + 1);
    const fetched = own.jwksRequests;
    await own.rotate('RS256');
    const res = await signInWithNewestKey(user.email);
    expect(res.status).toBe(200);
    expect(res.body.user.id).toBe(user.id);
    expect(own.jwksRequests - fetched).toBe(1);
  });

  it('inside the cooldown answers 503 with Retry-After, then 200 after that many seconds', async () => {
    const user = await createUser(t.app);
    expect((await signInWithNewestKey(user.email)).status).toBe(200); // the keys were just fetched
    await own.rotate('ES256');
    const token = await own.token({
      alg: 'ES256',
      claims: { email: user.email, sub: subjectFor(user.email) },
    });
    const login = () => t.http().post('/api/auth/login').send({ id_token: token });

    const first = await login();
    expect(first.status).toBe(503);
    expect(first.body.code).toBe('unavailable');
    const retryAfter = Number(first.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(COOLDOWN_SECONDS);
    // Others asking meanwhile are told the same, and nobody hammers the provider.
    const fetched = own.jwksRequests;
    expect((await login()).status).toBe(503);
    expect(own.jwksRequests).toBe(fetched);

    clock.advance(retryAfter);
    const again = await login();
    expect(again.status).toBe(200);
    expect(again.body.user.id).toBe(user.id);
  });

  it('still refuses with 401 a kid the provider never publishes, once it could look', async () => {
    const user = await createUser(t.app);
    expect((await signInWithNewestKey(user.email)).status).toBe(200);
    clock.advance(COOLDOWN_SECONDS + 1);
    const token = await own.token({ claims: { email: user.email }, kid: 'never-published' });
    const res = await t.http().post('/api/auth/login').send({ id_token: token });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_id_token');
  });

  // A kid first seen inside the cooldown is judged by the next refetch, whoever's token makes it:
  // not told to come back again and again while others' unknown kids keep the cooldown running.
  it('judges a kid seen inside the cooldown by the refetch that follows, made for another token', async () => {
    const user = await createUser(t.app);
    expect((await signInWithNewestKey(user.email)).status).toBe(200); // the keys were just fetched
    const claims = { email: user.email, sub: subjectFor(user.email) };
    const login = (token: string) => t.http().post('/api/auth/login').send({ id_token: token });
    const never = await own.token({ claims, kid: 'never-published', foreignKey: true });
    await own.rotate('ES256');
    const rotated = await own.token({ alg: 'ES256', claims });
    expect((await login(never)).status).toBe(503);
    expect((await login(rotated)).status).toBe(503);

    clock.advance(COOLDOWN_SECONDS + 1);
    const fetched = own.jwksRequests;
    const other = await own.token({ claims, kid: 'another-stranger', foreignKey: true });
    expect((await login(other)).status).toBe(401); // this refetch's own token
    expect(own.jwksRequests - fetched).toBe(1);

    // Inside the new cooldown: both verdicts come from that refetch, with no fetch of their own.
    const refused = await login(never);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('invalid_id_token');
    const accepted = await login(rotated);
    expect(accepted.status).toBe(200);
    expect(accepted.body.user.id).toBe(user.id);
    expect(own.jwksRequests - fetched).toBe(1);
  });
});
