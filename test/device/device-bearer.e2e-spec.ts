import { randomUUID } from 'node:crypto';
import type { DeviceSelfDto } from '../../src/device/registry/device-view.dto';
import { getRepositoryToken } from '@nestjs/typeorm';
import type { Repository } from 'typeorm';
import { Device } from '../../src/device/device.entity';
import { DeviceService } from '../../src/device/registry/device.service';
import { createDevice, createOrg } from '../support/factories';
import { decodeJwt, deviceToken, forgeDeviceToken, unsignedToken } from '../support/devices';
import { AppBehindProxy, createAppBehindProxy } from '../support/app-behind-proxy';
import type { TcpProxy } from '../support/tcp-proxy';
import { createTestApp, TestApp } from '../support/test-app';

describe('device bearer guard (GET /api/device/v1/self)', () => {
  let t: TestApp;
  let device: Device;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    device = await createDevice(t.app, (await createOrg(t.app)).id);
    token = await deviceToken(t, device);
  });
  afterAll(() => t.close());

  const self = (authorization?: string) => {
    const req = t.http().get('/api/device/v1/self');
    return authorization === undefined ? req : req.set('Authorization', authorization);
  };
  const expectRefused = (res: { status: number; body: unknown; headers: object }) => {
    expect(res.status).toBe(401);
    expect(res.body).toMatchObject({ status: 401, code: 'unauthenticated' });
    expect(res.headers).toMatchObject({ 'www-authenticate': 'Bearer realm="device"' });
  };

  it("lets a valid token through to the device's own record", async () => {
    const res = await self(`Bearer ${token}`).expect(200);
    expect(res.body).toEqual({
      device_id: device.deviceId,
      org_id: device.orgId,
      public_key_thumbprint: null,
      model: 'hub-2',
      provider: 'acme',
      status: 'active',
      last_seen_at: expect.any(String), // the token was a contact (docs/devices.md, "Liveness")
      firmware_version: null,
      battery_pct: null,
      created_at: device.createdAt.toISOString(),
    });
  });

  it('reads the active device with every column as TypeORM does, and no other device', async () => {
    const devices = t.app.get(DeviceService);
    const stored = await t.app
      .get<Repository<Device>>(getRepositoryToken(Device))
      .findOneByOrFail({ id: device.id });
    const found = await devices.findActive(device.deviceId, device.orgId);
    expect(found).toBeInstanceOf(Device);
    expect(found).toEqual(stored);
    await expect(devices.findActive(device.deviceId, randomUUID())).resolves.toBeNull();
    await expect(devices.findActive('never-registered', device.orgId)).resolves.toBeNull();
  });

  it('refuses a request without the Authorization header, or with another scheme', async () => {
    expectRefused(await self());
    expectRefused(await self(`Basic ${token}`));
    expectRefused(await self(token));
    expectRefused(await self('Bearer '));
  });

  it('reads the token only from the Authorization header, never a cookie or the URL', async () => {
    expectRefused(
      await t.http().get('/api/device/v1/self').set('Cookie', `service_session=${token}`),
    );
    expectRefused(await t.http().get('/api/device/v1/self').set('Cookie', `access_token=${token}`));
    expectRefused(await t.http().get(`/api/device/v1/self?access_token=${token}`));
  });

  it('refuses a tampered token: a changed payload or a changed signature', async () => {
    const other = await createDevice(t.app, device.orgId);
    const [h, , s] = token.split('.');
    const payload = { ...decodeJwt(token).payload, sub: other.deviceId };
    const swapped = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${s}`;
    expectRefused(await self(`Bearer ${swapped}`));
    const flipped = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    expectRefused(await self(`Bearer ${flipped}`));
  });

  it('refuses an unsigned alg: none token', async () => {
    const { payload } = decodeJwt(token);
    expectRefused(await self(`Bearer ${unsignedToken(payload)}`));
    // ...also with the original signature left in place.
    expectRefused(await self(`Bearer ${unsignedToken(payload)}${token.split('.')[2]}`));
  });

  it('refuses an expired token signed with the right key', async () => {
    const now = Math.floor(Date.now() / 1000);
    const expired = await forgeDeviceToken(device, {
      key: t.config.deviceToken.secret,
      claims: { iat: now - 1000, exp: now - 60 },
    });
    expectRefused(await self(`Bearer ${expired}`));
  });

  it('refuses right-key tokens of the wrong kind: type, audience, algorithm, claims, org', async () => {
    const key = t.config.deviceToken.secret;
    // Control: the forging helper itself makes a token the guard accepts.
    await self(`Bearer ${await forgeDeviceToken(device, { key })}`).expect(200);
    const wrong = await Promise.all([
      forgeDeviceToken(device, { key, header: { typ: 'JWT' } }),
      forgeDeviceToken(device, { key, claims: { aud: 'user' } }),
      forgeDeviceToken(device, { key, algorithm: 'HS512' }),
      forgeDeviceToken(device, { key, claims: { jti: undefined } }),
      forgeDeviceToken(device, { key, claims: { org_id: randomUUID() } }),
      forgeDeviceToken(device, { key, claims: { sub: 'never-registered' } }),
      forgeDeviceToken(device, { key: 'a-different-secret-0123456789abcdef' }),
    ]);
    for (const forged of wrong) expectRefused(await self(`Bearer ${forged}`));
  });

  it('ends outstanding tokens when the device is deactivated, and refuses new ones', async () => {
    const doomed = await createDevice(t.app, device.orgId);
    const earlier = await deviceToken(t, doomed);
    await self(`Bearer ${earlier}`).expect(200);
    await t.app.get(DeviceService).deactivate(doomed.orgId, doomed.deviceId);
    expectRefused(await self(`Bearer ${earlier}`));
    const res = await t
      .http()
      .post('/auth/device')
      .send({ device_id: doomed.deviceId, model: doomed.model, provider: doomed.provider });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_device');
  });
});

describe('POST /api/device/v1/heartbeat', () => {
  let t: TestApp;
  let device: Device;
  let auth: string;
  beforeAll(async () => {
    t = await createTestApp();
    device = await createDevice(t.app, (await createOrg(t.app)).id);
    auth = `Bearer ${await deviceToken(t, device)}`;
  });
  afterAll(() => t.close());

  const selfRecord = async (): Promise<DeviceSelfDto> => {
    const res = await t.http().get('/api/device/v1/self').set('Authorization', auth).expect(200);
    return res.body as DeviceSelfDto;
  };

  it('answers 204, stamps last_seen_at and stores what the device reports', async () => {
    const before = await selfRecord(); // the token stamped it already
    expect(before).toMatchObject({ firmware_version: null, battery_pct: null });
    await t
      .http()
      .post('/api/device/v1/heartbeat')
      .set('Authorization', auth)
      .send({ firmware_version: '2.4.1', battery_pct: 87 })
      .expect(204, '');
    const after = await selfRecord();
    expect(after).toMatchObject({ firmware_version: '2.4.1', battery_pct: 87 });
    expect(new Date(String(after.last_seen_at)).toISOString()).toBe(after.last_seen_at);
    expect(Date.parse(String(after.last_seen_at))).toBeGreaterThanOrEqual(
      Date.parse(String(before.last_seen_at)),
    );
  });

  it('accepts an empty heartbeat and keeps earlier reports', async () => {
    const before = await selfRecord();
    await t.http().post('/api/device/v1/heartbeat').set('Authorization', auth).send({}).expect(204);
    const after = await selfRecord();
    expect(after).toMatchObject({ firmware_version: '2.4.1', battery_pct: 87 });
    expect(Date.parse(String(after.last_seen_at))).toBeGreaterThanOrEqual(
      Date.parse(String(before.last_seen_at)),
    );
  });

  it('refuses bad values with 400 and no token with 401', async () => {
    for (const body of [
      { battery_pct: 101 },
      { battery_pct: 5.5 },
      { firmware_version: 'a\u0000' },
      { firmware_version: 'a\uFE0F'.repeat(64) }, // 128 code points in a varchar(64)
      { x: 1 },
    ]) {
      const res = await t
        .http()
        .post('/api/device/v1/heartbeat')
        .set('Authorization', auth)
        .send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    const res = await t.http().post('/api/device/v1/heartbeat').send({ battery_pct: 50 });
    expect(res.status).toBe(401);
    expect((await selfRecord()).battery_pct).toBe(87);
  });
});

describe('device routes when the database goes away', () => {
  let behind: AppBehindProxy;
  let proxy: TcpProxy;
  let t: TestApp;
  beforeAll(async () => {
    behind = await createAppBehindProxy();
    ({ t, proxy } = behind);
  });
  afterAll(() => behind.close());

  it('answers 503 unavailable, not 401: an outage is not a verdict on the device', async () => {
    const device = await createDevice(t.app, (await createOrg(t.app)).id);
    const token = await deviceToken(t, device);
    proxy.cut();
    const self = await t.http().get('/api/device/v1/self').set('Authorization', `Bearer ${token}`);
    expect(self.status).toBe(503);
    expect(self.body.code).toBe('unavailable');
    const auth = await t
      .http()
      .post('/auth/device')
      .send({ device_id: device.deviceId, model: device.model, provider: device.provider });
    expect(auth.status).toBe(503);
    proxy.restore();
  });
});
