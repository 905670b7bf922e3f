import { signIn } from '../support/auth';
import { deviceKeyPair, deviceToken } from '../support/devices';
import { createDevice } from '../support/factories';
import { createTestApp, TestApp } from '../support/test-app';

describe('a device’s first key ends the tokens issued before it', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('refuses a token issued without a key once an admin registers one', async () => {
    const admin = await signIn(t, { role: 'admin' });
    const device = await createDevice(t.app, admin.user.orgId);
    const before = await deviceToken(t, device);
    const self = () => t.http().get('/api/device/v1/self').set('Authorization', `Bearer ${before}`);
    await self().expect(200);
    await t
      .http()
      .put(`/api/v1/devices/${device.deviceId}/public-key`)
      .set('Cookie', admin.cookie)
      .send({ public_key: deviceKeyPair('ec').jwk })
      .expect(200);
    const res = await self();
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');
  });
});

/**
 * Failed attempts for a device without a key: counted per device and source address, with a far
 * higher ceiling (10x) for the device from all addresses. The allowance here: 3 a minute.
 */
describe('failed device-token attempts from many addresses', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      env: { TRUST_PROXY: 'loopback', RATE_LIMIT_DEVICE_AUTH_PER_MINUTE: '3' },
    });
  });
  afterAll(() => t.close());

  const attempt = (from: string, body: Record<string, string>) =>
    t.http().post('/auth/device').set('X-Forwarded-For', from).send(body);

  it('2 failures from each of 10 addresses (80 from 40 at the default allowance) leave the real device in', async () => {
    const device = await createDevice(t.app, (await signIn(t)).user.orgId);
    const claim = { device_id: device.deviceId, model: device.model, provider: device.provider };
    // Within the device's 10x ceiling (30) only if each address counts alone: 2 x 10 = 20.
    for (let i = 1; i <= 10; i++) {
      for (let n = 0; n < 2; n++) {
        const res = await attempt(`198.51.100.${i}`, { ...claim, model: 'wrong' });
        expect(res.status).toBe(401);
      }
    }
    await attempt('203.0.113.9', claim).expect(200);
  });

  it('one address that keeps failing is held, and the real device elsewhere is not', async () => {
    const device = await createDevice(t.app, (await signIn(t)).user.orgId);
    const claim = { device_id: device.deviceId, model: device.model, provider: device.provider };
    const statuses: number[] = [];
    for (let n = 0; n < 5; n++) {
      statuses.push((await attempt('198.51.100.200', { ...claim, model: 'wrong' })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect((await attempt('198.51.100.200', claim)).status).toBe(429);
    await attempt('203.0.113.10', claim).expect(200);
  });

  it('the device-wide ceiling still holds against many addresses', async () => {
    const device = await createDevice(t.app, (await signIn(t)).user.orgId);
    const claim = { device_id: device.deviceId, model: device.model, provider: device.provider };
    for (let i = 1; i <= 31; i++) await attempt(`192.0.2.${i}`, { ...claim, model: 'wrong' });
    const res = await attempt('203.0.113.11', claim);
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
  });
});
