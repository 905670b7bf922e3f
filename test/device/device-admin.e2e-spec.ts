import { apiClient } from '../support/api-client';
import { signIn } from '../support/auth';
import { createDevice, unique } from '../support/factories';
import { deviceToken } from '../support/devices';
import { createTestApp, TestApp } from '../support/test-app';

type ApiCall = ReturnType<typeof apiClient>;

describe('device administration: POST and DELETE /api/v1/devices', () => {
  let t: TestApp;
  let call: ApiCall;
  let admin: { cookie: string; orgId: string };
  let member: { cookie: string };
  beforeAll(async () => {
    t = await createTestApp();
    call = apiClient(t);
    const a = await signIn(t, { role: 'admin' });
    admin = { cookie: a.cookie, orgId: a.user.orgId };
    member = await signIn(t, { orgId: a.user.orgId, role: 'member' });
  });
  afterAll(() => t.close());

  // Through the client typed by the OpenAPI document: these calls compile against it.
  type NewDevice = { device_id: string; model: string; provider: string };
  const claimOf = (d: { deviceId: string; model: string; provider: string }): NewDevice => ({
    device_id: d.deviceId,
    model: d.model,
    provider: d.provider,
  });
  const deviceId = (device_id: string) => ({ device_id });
  const cookie = (value: string) => ({ Cookie: value });

  it('lets an admin register a device (201) that can then sign in', async () => {
    const body = { device_id: unique('hub'), model: 'hub-2', provider: 'acme' };
    const res = await call('post', '/api/v1/devices', {
      body,
      headers: cookie(admin.cookie),
      expect: 201,
    });
    expect(res.body).toMatchObject({ ...body, status: 'active', last_seen_at: null });
    const token = await call('post', '/auth/device', { body, expect: 200 });
    expect(token.body.token_type).toBe('Bearer');
    const list = await call('get', '/api/v1/devices', {
      headers: cookie(admin.cookie),
      expect: 200,
    });
    expect(list.body.items.map((d) => d.device_id)).toContain(body.device_id);
  });

  it('answers a duplicate device_id with 409 device_exists, also across organizations', async () => {
    const body = { device_id: unique('dup'), model: 'hub-2', provider: 'acme' };
    const headers = cookie(admin.cookie);
    await call('post', '/api/v1/devices', { body, headers, expect: 201 });
    const again = await call('post', '/api/v1/devices', { body, headers, expect: 409 });
    expect(again.body.code).toBe('device_exists');
    const elsewhere = cookie((await signIn(t, { role: 'admin' })).cookie);
    const there = await call('post', '/api/v1/devices', { body, headers: elsewhere, expect: 409 });
    expect(there.body.code).toBe('device_exists');
  });

  it('refuses a non-canonical or incomplete device with 400', async () => {
    // Deliberately outside the document's types: sent untyped.
    for (const body of [
      { device_id: 'Upper-Case', model: 'm', provider: 'p' },
      { device_id: 'has space', model: 'm', provider: 'p' },
      { device_id: unique('ok'), model: ' padded', provider: 'p' },
      { device_id: unique('ok'), model: 'm' },
      { device_id: unique('ok'), model: 'm', provider: 'p', org_id: admin.orgId },
      // 100 characters to validator.js, 200 code points to the varchar(100) column.
      { device_id: unique('ok'), model: 'a\uFE0F'.repeat(100), provider: 'p' },
    ]) {
      const res = await t.http().post('/api/v1/devices').set('Cookie', admin.cookie).send(body);
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
  });

  it('keeps members out of administration (403) and strangers out of everything (401)', async () => {
    const device = await createDevice(t.app, admin.orgId);
    const body = { device_id: unique('m'), model: 'hub-2', provider: 'acme' };
    const headers = cookie(member.cookie);
    await call('post', '/api/v1/devices', { body, headers, expect: 403 });
    const params = deviceId(device.deviceId);
    await call('delete', '/api/v1/devices/{device_id}', { params, headers, expect: 403 });
    await call('post', '/api/v1/devices', { body, expect: 401 });
    const stranger = await call('delete', '/api/v1/devices/{device_id}', { params, expect: 401 });
    expect(stranger.body.code).toBe('unauthenticated');
    // The device is untouched.
    await call('post', '/auth/device', { body: claimOf(device), expect: 200 });
  });

  it('deactivates on DELETE (204): the earlier token gets 401 and /auth/device refuses', async () => {
    const device = await createDevice(t.app, admin.orgId);
    const token = await deviceToken(t, device);
    const bearer = { Authorization: `Bearer ${token}` };
    await call('get', '/api/device/v1/self', { headers: bearer, expect: 200 });

    const params = deviceId(device.deviceId);
    const headers = cookie(admin.cookie);
    const removed = await call('delete', '/api/v1/devices/{device_id}', {
      params,
      headers,
      expect: 204,
    });
    expect(removed.body).toEqual({});
    await call('get', '/api/device/v1/self', { headers: bearer, expect: 401 });
    const refused = await call('post', '/auth/device', { body: claimOf(device), expect: 401 });
    expect(refused.body.code).toBe('invalid_device');
    // Still listed, as deactivated; deleting again changes nothing.
    const list = await call('get', '/api/v1/devices', {
      query: { limit: 200 },
      headers,
      expect: 200,
    });
    const item = list.body.items.find((d) => d.device_id === device.deviceId);
    expect(item?.status).toBe('deactivated');
    await call('delete', '/api/v1/devices/{device_id}', { params, headers, expect: 204 });
  });

  it("answers 404 for another org's device, and leaves it active", async () => {
    const other = await signIn(t, { role: 'admin' });
    const theirs = await createDevice(t.app, other.user.orgId);
    const headers = cookie(admin.cookie);
    const remove = (id: string) =>
      call('delete', '/api/v1/devices/{device_id}', { params: deviceId(id), headers, expect: 404 });
    const res = await remove(theirs.deviceId);
    expect(res.body.code).toBe('not_found');
    expect((await remove(unique('nobody'))).body).toEqual(res.body);
    await remove('NOT canonical');
    await call('post', '/auth/device', { body: claimOf(theirs), expect: 200 });
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
    expect(paths['/auth/device'].post.security).toEqual([]); // public, said explicitly
    expect(paths['/api/device/v1/self'].get.security).toEqual([{ device: [] }]);
    expect(paths['/api/device/v1/heartbeat'].post.security).toEqual([{ device: [] }]);
    expect(paths['/api/v1/devices'].get.security).toEqual([{ session: [] }]);
    expect(paths['/api/v1/devices'].post.security).toEqual([{ session: [] }]);
    expect(paths['/api/v1/devices/{device_id}'].delete.security).toEqual([{ session: [] }]);
  });
});
