import { createHmac, randomUUID } from 'node:crypto';
import { jwtVerify } from 'jose';
import type { Device } from '../../src/device/device.entity';
import { DeviceService } from '../../src/device/registry/device.service';
import { createDevice, createOrg } from '../support/factories';
import { decodeJwt, deviceToken } from '../support/devices';
import { createTestApp, TestApp } from '../support/test-app';
import { FakeClock } from '../support/fake-clock';
import { Clock } from '../../src/common/clock/clock';

describe('POST /auth/device', () => {
  let t: TestApp;
  let device: Device;
  beforeAll(async () => {
    t = await createTestApp({ env: { DEVICE_TOKEN_TTL_SECONDS: '600' } });
    device = await createDevice(t.app, (await createOrg(t.app)).id);
  });
  afterAll(() => t.close());

  const claimOf = (d: Device) => ({ device_id: d.deviceId, model: d.model, provider: d.provider });

  it('gives a registered device a short-lived JWT exactly as the contract says', async () => {
    const res = await t.http().post('/auth/device').send(claimOf(device)).expect(200);
    expect(Object.keys(res.body).sort()).toEqual([
      'access_token',
      'expires_at',
      'expires_in',
      'token_type',
    ]);
    expect(res.body).toMatchObject({ token_type: 'Bearer', expires_in: 600 });
    expect(res.headers['cache-control']).toBe('no-store');

    const { header, payload } = decodeJwt(res.body.access_token);
    expect(header).toEqual({ alg: 'HS256', typ: 'device+jwt' });
    expect(payload).toMatchObject({ sub: device.deviceId, org_id: device.orgId, aud: 'device' });
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(Number(payload.exp) - Number(payload.iat)).toBe(600);
    expect(res.body.expires_at).toBe(new Date(Number(payload.exp) * 1000).toISOString());
    // Signed with the configured secret: it verifies with that key and no other.
    await expect(
      jwtVerify(res.body.access_token, t.config.deviceToken.secret),
    ).resolves.toBeTruthy();
    const another = new TextEncoder().encode('another-secret-0123456789abcdef-xyz');
    await expect(jwtVerify(res.body.access_token, another)).rejects.toThrow();
  });

  it('gives each token its own jti', async () => {
    const a = decodeJwt(await deviceToken(t, device)).payload.jti;
    const b = decodeJwt(await deviceToken(t, device)).payload.jti;
    expect(a).not.toBe(b);
  });

  it('answers unknown, deactivated and mismatching devices with one identical 401', async () => {
    const org = await createOrg(t.app);
    const retired = await createDevice(t.app, org.id);
    await t.app.get(DeviceService).deactivate(org.id, retired.deviceId);
    const attempts = [
      { ...claimOf(device), device_id: `unknown-${randomUUID()}` },
      claimOf(retired),
      { ...claimOf(device), model: 'hub-3' },
      { ...claimOf(device), provider: 'other' },
      { ...claimOf(device), model: 'HUB-2' },
      { ...claimOf(device), device_id: device.deviceId.toUpperCase() },
    ];
    const bodies: unknown[] = [];
    for (const attempt of attempts) {
      const res = await t.http().post('/auth/device').send(attempt);
      expect(res.status).toBe(401);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      bodies.push(res.body);
    }
    expect(bodies[0]).toMatchObject({ status: 401, code: 'invalid_device' });
    for (const body of bodies) expect(body).toEqual(bodies[0]);
  });

  it('refuses a malformed body with 400 validation_failed', async () => {
    for (const body of [
      { device_id: device.deviceId, model: device.model },
      { ...claimOf(device), extra: true },
      { ...claimOf(device), provider: 7 },
      // PostgreSQL cannot keep NUL: refused before any lookup, never a 500 (docs/api.md).
      { ...claimOf(device), device_id: 'a\u0000b' },
    ]) {
      const res = await t.http().post('/auth/device').send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
  });
});

describe('POST /auth/device rate limits', () => {
  let t: TestApp;
  let orgId: string;
  beforeAll(async () => {
    // One proxy hop, so each test request can come "from" its own client address.
    t = await createTestApp({ env: { RATE_LIMIT_DEVICE_AUTH_PER_MINUTE: '3', TRUST_PROXY: '1' } });
    orgId = (await createOrg(t.app)).id;
  });
  afterAll(() => t.close());

  const attempt = (ip: string, deviceId: string, model = 'hub-2') =>
    t
      .http()
      .post('/auth/device')
      .set('X-Forwarded-For', ip)
      .send({ device_id: deviceId, model, provider: 'acme' });

  it("limits one device_id's failed attempts per address, and 10x that from all, not its successes", async () => {
    const device = await createDevice(t.app, orgId);
    for (const ip of ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4']) {
      await attempt(ip, device.deviceId).expect(200);
    }
    for (let n = 0; n < 3; n++) await attempt('10.0.1.1', device.deviceId, 'wrong').expect(401);
    const limited = await attempt('10.0.1.1', device.deviceId, 'wrong');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // Held at that address only: the device elsewhere still gets its token.
    await attempt('10.0.0.5', device.deviceId).expect(200);
    // From all addresses together the ceiling is 10x (30). Past it a device without a key is
    // refused too, right values or not: the trade-off docs/devices.md states (a key avoids it).
    for (let n = 1; n <= 30; n++) await attempt(`10.0.2.${n}`, device.deviceId, 'wrong');
    expect((await attempt('10.0.0.6', device.deviceId)).status).toBe(429);
    // Another device from a fresh address is not affected.
    const other = await createDevice(t.app, orgId);
    await attempt('10.0.0.7', other.deviceId).expect(200);
  });

  it('limits one client address across many device_ids', async () => {
    for (const n of [1, 2, 3]) await attempt('10.1.0.1', `guess-${n}`).expect(401);
    const limited = await attempt('10.1.0.1', 'guess-4');
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
  });
});

describe('the device token, claim by claim (signed with jsonwebtoken, read by passport-jwt)', () => {
  // A day ahead of the wall: every time in the token must come from the Clock.
  const clock = new FakeClock();
  clock.advance(24 * 3600);
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { DEVICE_TOKEN_TTL_SECONDS: '900' },
      override: (b) => b.overrideProvider(Clock).useValue(clock),
    });
  });
  afterAll(() => t.close());

  it('has exactly the header and claims the contract names, in their order, at the Clock', async () => {
    const device = await createDevice(t.app, (await createOrg(t.app)).id);
    const now = Math.floor(clock.now().getTime() / 1000);
    const res = await t
      .http()
      .post('/auth/device')
      .send({ device_id: device.deviceId, model: device.model, provider: device.provider })
      .expect(200);
    const token: string = res.body.access_token;
    const [h, p, s] = token.split('.');
    expect(Buffer.from(h, 'base64url').toString('utf8')).toBe('{"alg":"HS256","typ":"device+jwt"}');
    const payload = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as object;
    expect(Object.keys(payload)).toEqual(['org_id', 'sub', 'aud', 'jti', 'iat', 'exp']);
    expect(payload).toEqual({
      org_id: device.orgId,
      sub: device.deviceId,
      aud: 'device',
      jti: expect.stringMatching(
        /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
      ),
      iat: now,
      exp: now + 900,
    });
    // HMAC-SHA256 over the first two parts, under the configured secret.
    const mac = createHmac('sha256', t.config.deviceToken.secret)
      .update(`${h}.${p}`)
      .digest('base64url');
    expect(s).toBe(mac);
    expect(res.body).toEqual({
      access_token: token,
      token_type: 'Bearer',
      expires_in: 900,
      expires_at: new Date((now + 900) * 1000).toISOString(),
    });
    // The token works on a device route until the Clock reaches its exp, and not from then on.
    const self = () => t.http().get('/api/device/v1/self').set('Authorization', `Bearer ${token}`);
    await self().expect(200);
    clock.advance(899);
    await self().expect(200);
    clock.advance(1);
    const refused = await self().expect(401);
    expect(refused.body).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="device"');
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
  });
});
