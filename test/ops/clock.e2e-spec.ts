import { Clock } from '../../src/common/clock/clock';
import { signIn } from '../support/auth';
import { createDevice, createOrg, createPendingSubscription } from '../support/factories';
import { deviceToken, forgeDeviceToken } from '../support/devices';
import { FakeClock } from '../support/fake-clock';
import { checkoutCompletedEvent, sign } from '../support/processor-events';
import { createTestApp, TestApp } from '../support/test-app';
import { deliver, WEBHOOK_ENV } from '../support/webhook';

/**
 * Every expiry the service decides reads the injected Clock, not the wall clock: moving the clock
 * ends sessions, device tokens and webhook signatures, with nothing else faked.
 */
describe('expiry follows the Clock', () => {
  const clock = new FakeClock();
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        ...WEBHOOK_ENV,
        SESSION_IDLE_TTL_SECONDS: '600',
        SESSION_ABSOLUTE_TTL_SECONDS: '3600',
        DEVICE_TOKEN_TTL_SECONDS: '60',
      },
      override: (b) => b.overrideProvider(Clock).useValue(clock),
    });
  });
  afterAll(() => t.close());

  const signedAtClock = (payload: string, offsetSeconds = 0) =>
    sign(payload, undefined, Math.floor(clock.now().getTime() / 1000) + offsetSeconds);

  // First: signing in needs an ID token whose times the provider set by the wall clock.
  it('ends a session when the clock passes its idle end', async () => {
    const login = await signIn(t, {});
    const res = await t.http().get('/api/auth/me').set('Cookie', login.cookie).expect(200);
    expect(res.body.user.id).toBe(login.user.id);
    clock.advance(601);
    await t.http().get('/api/auth/me').set('Cookie', login.cookie).expect(401);
  });

  it('ends a device token when the clock passes its expiry', async () => {
    const org = await createOrg(t.app);
    const device = await createDevice(t.app, org.id);
    const token = await deviceToken(t, device);
    const self = () => t.http().get('/api/device/v1/self').set('Authorization', `Bearer ${token}`);
    await self().expect(200);
    clock.advance(59);
    await self().expect(200);
    clock.advance(2);
    const res = await self().expect(401);
    expect(res.body.code).toBe('unauthenticated');
  });

  it('refuses a webhook signature once the clock is past its tolerance', async () => {
    const sub = await createPendingSubscription(t.app);
    const payload = JSON.stringify(checkoutCompletedEvent(sub.id));
    const signature = signedAtClock(payload);
    clock.advance(301);
    const res = await deliver(t, payload, signature).expect(400);
    expect(res.body.code).toBe('invalid_signature');
  });

  it('judges a signature by the clock, not the wall: a day ahead, a signature of then is fresh', async () => {
    clock.advance(24 * 3600);
    const sub = await createPendingSubscription(t.app);
    const payload = JSON.stringify(checkoutCompletedEvent(sub.id));
    await deliver(t, payload, signedAtClock(payload)).expect(200, { received: true });
    // A signature made now by the wall clock is a day old by this one.
    const wall = sign(payload, undefined, Math.floor(Date.now() / 1000));
    await deliver(t, payload, wall).expect(400);
  });

  it("judges a device token's exp and nbf by the clock, not the wall", async () => {
    clock.advance(3600); // at least an hour ahead of the wall from here
    const device = await createDevice(t.app, (await createOrg(t.app)).id);
    const key = t.config.deviceToken.secret;
    const self = (token: string) =>
      t.http().get('/api/device/v1/self').set('Authorization', `Bearer ${token}`);
    const at = Math.floor(clock.now().getTime() / 1000);
    const wall = Math.floor(Date.now() / 1000);
    const forge = (claims: object) =>
      forgeDeviceToken(device, { key, claims: { iat: at, ...claims } });
    // Expired by the clock, though the wall would still take it.
    const expired = await self(await forge({ exp: at - 1 })).expect(401);
    expect(expired.body.code).toBe('unauthenticated');
    await self(await forge({ exp: at + 1 })).expect(200);
    // Not yet valid by the clock until the clock reaches `nbf`; valid by it though not by the wall.
    const early = await forge({ nbf: at + 30, exp: at + 600 });
    expect((await self(early).expect(401)).body.code).toBe('unauthenticated');
    await self(await forge({ nbf: wall + 60, exp: at + 600 })).expect(200);
    clock.advance(30);
    await self(early).expect(200);
  });
});
