import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/clock/clock';
import { DEVICE_SUMMARY_SQL } from '../../src/device/liveness/device-liveness.sql';
import { DeviceService } from '../../src/device/registry/device.service';
import type { DeviceListDto } from '../../src/device/registry/device-view.dto';
import { signIn } from '../support/auth';
import { cliJson } from '../support/cli';
import { deviceToken } from '../support/devices';
import { createDevice, createOrg } from '../support/factories';
import { FakeClock } from '../support/fake-clock';
import { createTestApp, TestApp, testDatabaseUrl } from '../support/test-app';

/**
 * GET /api/v1/devices/summary (contract section 11): the organization's active devices by health,
 * as the list works health out, and those whose last battery report is under the low mark.
 */
describe('GET /api/v1/devices/summary', () => {
  let t: TestApp;
  const clock = new FakeClock();
  beforeAll(async () => {
    t = await createTestApp({
      env: { DEVICE_BATTERY_LOW_PCT: '20', DEVICE_TOKEN_TTL_SECONDS: '86400' },
      override: (b) => b.overrideProvider(Clock).useValue(clock),
    });
  });
  afterAll(() => t.close());

  const summary = (cookie: string) => t.http().get('/api/v1/devices/summary').set('Cookie', cookie);
  const heartbeat = (token: string, body: object = {}) =>
    t.http().post('/api/device/v1/heartbeat').set('Authorization', `Bearer ${token}`).send(body);

  it('counts online, offline, never seen and low battery for the org, and no other org', async () => {
    const a = await signIn(t, { role: 'admin' });
    const org = a.user.orgId;
    const [quiet, lowQuiet] = [await createDevice(t.app, org), await createDevice(t.app, org)];
    await heartbeat(await deviceToken(t, quiet), { battery_pct: 80 }).expect(204);
    await heartbeat(await deviceToken(t, lowQuiet), { battery_pct: 5 }).expect(204);
    clock.advance(901); // past the default threshold of 900 s: both offline now
    const fresh = await createDevice(t.app, org);
    await heartbeat(await deviceToken(t, fresh), { battery_pct: 19 }).expect(204);
    const atMark = await createDevice(t.app, org);
    await heartbeat(await deviceToken(t, atMark), { battery_pct: 20 }).expect(204);
    await createDevice(t.app, org);
    await createDevice(t.app, org);
    // Deactivated devices are not counted, whatever their health or battery.
    const gone = await createDevice(t.app, org);
    await heartbeat(await deviceToken(t, gone), { battery_pct: 3 }).expect(204);
    await t.app.get(DeviceService).deactivate(org, gone.deviceId);
    // Another organization's devices, in every health, count only there.
    const other = await signIn(t);
    await heartbeat(await deviceToken(t, await createDevice(t.app, other.user.orgId)), {
      battery_pct: 1,
    }).expect(204);
    await createDevice(t.app, other.user.orgId);

    const res = await summary(a.cookie).expect(200);
    expect(res.body).toEqual({ online: 2, offline: 2, never_seen: 2, battery_low: 2 });
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const theirs = await summary(other.cookie).expect(200);
    expect(theirs.body).toEqual({ online: 1, offline: 0, never_seen: 1, battery_low: 1 });
    const empty = await signIn(t);
    await summary(empty.cookie).expect(200, {
      online: 0,
      offline: 0,
      never_seen: 0,
      battery_low: 0,
    });
  });

  it("agrees with the list's health of every active device, at the same moment", async () => {
    const a = await signIn(t);
    const org = a.user.orgId;
    for (let i = 0; i < 3; i++) await deviceToken(t, await createDevice(t.app, org));
    clock.advance(600);
    for (let i = 0; i < 2; i++) await deviceToken(t, await createDevice(t.app, org));
    await createDevice(t.app, org);
    clock.advance(300); // the first three cross the line exactly now (deadline <= now)
    const list = (await t.http().get('/api/v1/devices?limit=200').set('Cookie', a.cookie))
      .body as DeviceListDto;
    const counted = (h: string) =>
      list.items.filter((d) => d.status === 'active' && d.health === h).length;
    const res = await summary(a.cookie).expect(200);
    expect(res.body).toMatchObject({
      online: counted('online'),
      offline: counted('offline'),
      never_seen: counted('never_seen'),
    });
    expect(res.body).toMatchObject({ online: 2, offline: 3, never_seen: 1 });
  });

  it('refuses a device bearer token and a request without a session with 401', async () => {
    const a = await signIn(t);
    const token = await deviceToken(t, await createDevice(t.app, a.user.orgId));
    const bearer = await t
      .http()
      .get('/api/v1/devices/summary')
      .set('Authorization', `Bearer ${token}`);
    expect(bearer.status).toBe(401);
    expect(bearer.body.code).toBe('unauthenticated');
    expect(bearer.headers['content-type']).toMatch(/^application\/problem\+json/);
    const none = await t.http().get('/api/v1/devices/summary');
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('unauthenticated');
  });

  it("reads the org's rows through IDX_devices_org_device_id, never the whole table", async () => {
    // As the liveness pass's plan test: seq scans priced out, the statement must be able to use
    // the index at all (a table this small proves nothing about the planner's choice).
    const org = (await createOrg(t.app)).id;
    const plan = await t.app.get(DataSource).transaction(async (m) => {
      await m.query('SET LOCAL enable_seqscan = off');
      const rows = await m.query<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${DEVICE_SUMMARY_SQL}`, [
        org,
        clock.now(),
        20,
      ]);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index (Only )?Scan using "?IDX_devices_org_device_id"?/);
    expect(plan).toMatch(/Index Cond: \(org_id = /);
    expect(plan).not.toMatch(/Seq Scan on devices/);
  });
});

describe('command line: device:summary', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The CLI reads its configuration from the environment, as it does in production.
    process.env.DATABASE_URL = testDatabaseUrl();
    process.env.DATABASE_POOL_SIZE = '2';
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it("prints the organization's counts as the API answers them", async () => {
    const org = (await createOrg(t.app)).id;
    for (let i = 0; i < 2; i++) await createDevice(t.app, org);
    expect(await cliJson(['device:summary', '--org', org])).toEqual({
      online: 0,
      offline: 0,
      never_seen: 2,
      battery_low: 0,
    });
  });
});
