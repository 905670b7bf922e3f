import type { DeviceListDto } from '../src/device/device-view.dto';
import { signIn } from './support/auth';
import { createDevice, unique } from './support/factories';
import { deviceToken } from './support/devices';
import { createTestApp, TestApp } from './support/test-app';

describe('device administration: POST and DELETE /api/v1/devices', () => {
  let t: TestApp;
  let admin: { cookie: string; orgId: string };
  let member: { cookie: string };
  beforeAll(async () => {
    t = await createTestApp();
    const a = await signIn(t, { role: 'admin' });
    admin = { cookie: a.cookie, orgId: a.user.orgId };
    member = await signIn(t, { orgId: a.user.orgId, role: 'member' });
  });
  afterAll(() => t.close());

  const register = (cookie: string, body: object) =>
    t.http().post('/api/v1/devices').set('Cookie', cookie).send(body);
  const remove = (cookie: string, deviceId: string) =>
    t.http().delete(`/api/v1/devices/${deviceId}`).set('Cookie', cookie);
  const auth = (body: object) => t.http().post('/auth/device').send(body);

  it('lets an admin register a device (201) that can then sign in', async () => {
    const body = { device_id: unique('hub'), model: 'hub-2', provider: 'acme' };
    const res = await register(admin.cookie, body).expect(201);
    expect(res.body).toMatchObject({ ...body, status: 'active', last_seen_at: null });
    await auth(body).expect(200);
    const list = await t.http().get('/api/v1/devices').set('Cookie', admin.cookie).expect(200);
    expect((list.body as DeviceListDto).items.map((d) => d.device_id)).toContain(body.device_id);
  });

  it('answers a duplicate device_id with 409 device_exists, also across organizations', async () => {
    const body = { device_id: unique('dup'), model: 'hub-2', provider: 'acme' };
    await register(admin.cookie, body).expect(201);
    const again = await register(admin.cookie, body);
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('device_exists');
    const elsewhere = await signIn(t, { role: 'admin' });
    expect((await register(elsewhere.cookie, body)).body.code).toBe('device_exists');
  });

  it('refuses a non-canonical or incomplete device with 400', async () => {
    for (const body of [
      { device_id: 'Upper-Case', model: 'm', provider: 'p' },
      { device_id: 'has space', model: 'm', provider: 'p' },
      { device_id: unique('ok'), model: ' padded', provider: 'p' },
      { device_id: unique('ok'), model: 'm' },
      { device_id: unique('ok'), model: 'm', provider: 'p', org_id: admin.orgId },
    ]) {
      const res = await register(admin.cookie, body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
  });

  it('keeps members out of administration (403) and strangers out of everything (401)', async () => {
    const device = await createDevice(t.app, admin.orgId);
    const body = { device_id: unique('m'), model: 'hub-2', provider: 'acme' };
    expect((await register(member.cookie, body)).status).toBe(403);
    expect((await remove(member.cookie, device.deviceId)).status).toBe(403);
    expect((await t.http().post('/api/v1/devices').send(body)).status).toBe(401);
    expect((await t.http().delete(`/api/v1/devices/${device.deviceId}`)).status).toBe(401);
    // The device is untouched.
    await auth({ device_id: device.deviceId, model: 'hub-2', provider: 'acme' }).expect(200);
  });

  it('deactivates on DELETE (204): the earlier token gets 401 and /auth/device refuses', async () => {
    const device = await createDevice(t.app, admin.orgId);
    const claim = { device_id: device.deviceId, model: device.model, provider: device.provider };
    const token = await deviceToken(t, device);
    const self = () => t.http().get('/api/device/v1/self').set('Authorization', `Bearer ${token}`);
    await self().expect(200);

    await remove(admin.cookie, device.deviceId).expect(204, '');
    expect((await self()).status).toBe(401);
    const refused = await auth(claim);
    expect(refused.status).toBe(401);
    expect(refused.body.code).toBe('invalid_device');
    // Still listed, as deactivated; deleting again changes nothing.
    const list = await t.http().get('/api/v1/devices?limit=200').set('Cookie', admin.cookie);
    const item = (list.body as DeviceListDto).items.find((d) => d.device_id === device.deviceId);
    expect(item?.status).toBe('deactivated');
    await remove(admin.cookie, device.deviceId).expect(204);
  });

  it("answers 404 for another org's device, and leaves it active", async () => {
    const other = await signIn(t, { role: 'admin' });
    const theirs = await createDevice(t.app, other.user.orgId);
    const res = await remove(admin.cookie, theirs.deviceId);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('not_found');
    const unknown = await remove(admin.cookie, unique('nobody'));
    expect(unknown.body).toEqual(res.body);
    expect((await remove(admin.cookie, 'NOT%20canonical')).status).toBe(404);
    await auth({ device_id: theirs.deviceId, model: 'hub-2', provider: 'acme' }).expect(200);
  });
});

describe('device and session credentials are not interchangeable', () => {
  let t: TestApp;
  let session: { cookie: string; orgId: string };
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    const a = await signIn(t, { role: 'admin' });
    session = { cookie: a.cookie, orgId: a.user.orgId };
    token = await deviceToken(t, await createDevice(t.app, a.user.orgId));
  });
  afterAll(() => t.close());

  const cookieName = () => t.config.session.cookieName;

  it('refuses the device token on /api/v1/devices as a bearer', async () => {
    const res = await t.http().get('/api/v1/devices').set('Authorization', `Bearer ${token}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');
    const post = await t
      .http()
      .post('/api/v1/devices')
      .set('Authorization', `Bearer ${token}`)
      .send({ device_id: unique('x'), model: 'm', provider: 'p' });
    expect(post.status).toBe(401);
  });

  it('refuses the device token on /api/v1/devices as the session cookie', async () => {
    const res = await t.http().get('/api/v1/devices').set('Cookie', `${cookieName()}=${token}`);
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('unauthenticated');
  });

  it("refuses the session cookie's value as a bearer on device routes", async () => {
    // Control: the cookie itself works where it belongs.
    await t.http().get('/api/v1/devices').set('Cookie', session.cookie).expect(200);
    const value = session.cookie.slice(session.cookie.indexOf('=') + 1);
    for (const req of [
      t.http().get('/api/device/v1/self'),
      t.http().post('/api/device/v1/heartbeat').send({}),
    ]) {
      const res = await req.set('Authorization', `Bearer ${value}`);
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('unauthenticated');
    }
    // Nor does the cookie itself open a device route.
    const res = await t.http().get('/api/device/v1/self').set('Cookie', session.cookie);
    expect(res.status).toBe(401);
  });
});

describe('API docs for the device routes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('documents each route with its credential', async () => {
    const res = await t.http().get('/api/docs-json').expect(200);
    const paths = res.body.paths as Record<string, Record<string, { security?: object[] }>>;
    expect(paths['/auth/device'].post.security).toBeUndefined();
    expect(paths['/api/device/v1/self'].get.security).toEqual([{ device: [] }]);
    expect(paths['/api/device/v1/heartbeat'].post.security).toEqual([{ device: [] }]);
    expect(paths['/api/v1/devices'].get.security).toEqual([{ session: [] }]);
    expect(paths['/api/v1/devices'].post.security).toEqual([{ session: [] }]);
    expect(paths['/api/v1/devices/{device_id}'].delete.security).toEqual([{ session: [] }]);
  });
});
