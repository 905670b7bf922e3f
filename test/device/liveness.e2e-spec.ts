import { DataSource } from 'typeorm';
import { DeviceLiveness } from '../../src/device/liveness/device-liveness.service';
import { LIVENESS_PASS_SQL } from '../../src/device/liveness/device-liveness.sql';
import { eachRowParams } from '../../src/outgoing-webhook/outbox/event-outbox.sql';
import type { DeviceListDto } from '../../src/device/registry/device-view.dto';
import type { Device } from '../../src/device/device.entity';
import { addEndpoint, WebhookWorld, webhookWorld } from '../outgoing-webhooks/support';
import { signIn } from '../support/auth';
import { deviceToken } from '../support/devices';
import { createDevice } from '../support/factories';
import { eventually, verifies } from '../support/webhook-receiver';

/**
 * Contract section 10, "Liveness", on the fake clock: the deadline, the pass's device.offline once
 * per crossing, device.online on the next contact, device.battery_low with its hysteresis, the
 * list's health. The pass is run by hand (its timer is a day here); its counts are the whole
 * database's (earlier files' devices too), so each test checks its own devices' events.
 */
describe('device liveness', () => {
  let w: WebhookWorld;
  let secret: string;
  const LIVENESS_TYPES = ['device.offline', 'device.online', 'device.battery_low'];
  beforeAll(async () => {
    w = await webhookWorld({
      DEVICE_TOKEN_TTL_SECONDS: '86400',
      DEVICE_LIVENESS_INTERVAL_SECONDS: '86400',
    });
    const endpoint = await addEndpoint(w.t, w.admin.cookie, {
      url: w.receiver.url,
      event_types: LIVENESS_TYPES,
    });
    secret = endpoint.secret;
  });
  afterAll(() => w.close());

  const http = () => w.t.http();
  const pass = () => w.t.app.get(DeviceLiveness).runOnce();
  const setThreshold = (seconds: number | null) =>
    http()
      .patch('/api/v1/org')
      .set('Cookie', w.admin.cookie)
      .send({ device_offline_after_seconds: seconds });
  const heartbeat = (token: string, body: object = {}) =>
    http().post('/api/device/v1/heartbeat').set('Authorization', `Bearer ${token}`).send(body);

  /** How many events of `type` were stored for the device (what the receiver will get). */
  async function stored(type: string, device: Device): Promise<number> {
    const [row] = await w.t.app.get(DataSource).query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM outgoing_events
        WHERE type = $1 AND payload::jsonb -> 'data' ->> 'device_id' = $2`,
      [type, device.deviceId],
    );
    return row.n;
  }
  /** The event at the receiver, signed (standardwebhooks) and as the contract words it. */
  async function received(type: string, device: Device, nth = 1) {
    const d = await eventually(`${type} #${nth} of ${device.deviceId}`, () => {
      const all = w.receiver.of(type).filter((x) => x.json.data.device_id === device.deviceId);
      return all.length >= nth && all[nth - 1];
    });
    expect(verifies(secret, d)).toBe(true);
    // The bytes a JSON.stringify of the body would give, however the event was built.
    expect(d.body).toBe(JSON.stringify(d.json));
    expect(Object.keys(d.json.data).sort()).toEqual(
      [
        'battery_pct',
        'device_id',
        'health',
        'last_seen_at',
        'model',
        'org_id',
        'provider',
        'status',
      ].sort(),
    );
    expect(d.json.data).toMatchObject({
      device_id: device.deviceId,
      org_id: device.orgId,
      model: device.model,
      provider: device.provider,
      status: 'active',
    });
    return d.json.data;
  }
  async function healthOf(device: Device, query = ''): Promise<string | undefined> {
    const res = await http()
      .get(`/api/v1/devices?limit=200${query}`)
      .set('Cookie', w.admin.cookie)
      .expect(200);
    return (res.body as DeviceListDto).items.find((i) => i.device_id === device.deviceId)?.health;
  }

  it("reads the due devices from the pass's partial index, a range of it (LIVENESS_PASS_SQL)", async () => {
    // The planner's choice on a table this small is no proof, so seq scans are priced out: what is
    // checked is that the statement's conditions let PostgreSQL use the index at all.
    const plan = await w.t.app.get(DataSource).transaction(async (m) => {
      await m.query('SET LOCAL enable_seqscan = off');
      const now = w.clock.now();
      const params = [now, 1000, ...eachRowParams('device.offline', now)];
      const rows = await m.query<{ 'QUERY PLAN': string }[]>(
        `EXPLAIN ${LIVENESS_PASS_SQL}`,
        params,
      );
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Index (Only )?Scan using "?IDX_devices_liveness_due"?/);
    // A range of the index; the partial index's own conditions stay as a filter, which FOR UPDATE
    // keeps to recheck a row a concurrent change moved.
    expect(plan).toMatch(/Index Cond: \(+offline_after <= /);
    expect(plan).not.toMatch(/Seq Scan on devices/);
  });

  it('counts from the last contact at the default threshold: never_seen, online, offline once', async () => {
    await setThreshold(null).expect(200);
    const device = await createDevice(w.t.app, w.admin.orgId);
    expect(await healthOf(device)).toBe('never_seen');
    await deviceToken(w.t, device);
    expect(await healthOf(device)).toBe('online');
    w.clock.advance(899);
    await pass();
    expect(await stored('device.offline', device)).toBe(0);
    w.clock.advance(1);
    expect(await healthOf(device)).toBe('offline');
    expect((await pass()).offline).toBeGreaterThanOrEqual(1);
    await pass(); // a second pass sends nothing more
    expect(await stored('device.offline', device)).toBe(1);
    const data = await received('device.offline', device);
    expect(data).toMatchObject({ health: 'offline', battery_pct: null });
    expect(typeof data.last_seen_at).toBe('string');
  });

  it("takes the organization's threshold (PATCH /api/v1/org) and moves seen devices' deadlines", async () => {
    await setThreshold(null).expect(200);
    const device = await createDevice(w.t.app, w.admin.orgId);
    await deviceToken(w.t, device);
    w.clock.advance(30);
    const res = await setThreshold(20).expect(200);
    expect(res.body).toMatchObject({ id: w.admin.orgId, device_offline_after_seconds: 20 });
    // Quiet for 30 s already: past the new line at once.
    expect(await healthOf(device, '&health=offline')).toBe('offline');
    expect(await healthOf(device, '&health=online')).toBeUndefined();
    await pass();
    expect(await stored('device.offline', device)).toBe(1);
    const got = await http().get('/api/v1/org').set('Cookie', w.admin.cookie).expect(200);
    expect(got.body.device_offline_after_seconds).toBe(20);
    await setThreshold(null).expect(200);
    const reset = await http().get('/api/v1/org').set('Cookie', w.admin.cookie).expect(200);
    expect(reset.body.device_offline_after_seconds).toBeNull();
  });

  it('refuses a bad threshold, and a member', async () => {
    for (const bad of [1, 2_592_001, 2.5, '60', undefined]) {
      const res = await http()
        .patch('/api/v1/org')
        .set('Cookie', w.admin.cookie)
        .send(bad === undefined ? {} : { device_offline_after_seconds: bad });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('validation_failed');
    }
    const member = await signIn(w.t, { orgId: w.admin.orgId, role: 'member' });
    await http()
      .patch('/api/v1/org')
      .set('Cookie', member.cookie)
      .send({ device_offline_after_seconds: 60 })
      .expect(403);
  });

  it('sends device.online on the next heartbeat, and on the next token, once each', async () => {
    await setThreshold(10).expect(200);
    const device = await createDevice(w.t.app, w.admin.orgId);
    const token = await deviceToken(w.t, device);
    w.clock.advance(11);
    await pass();
    await Promise.all([heartbeat(token).expect(204), heartbeat(token).expect(204)]);
    expect(await stored('device.online', device)).toBe(1);
    expect(await received('device.online', device)).toMatchObject({ health: 'online' });
    expect(await healthOf(device)).toBe('online');
    w.clock.advance(11);
    await pass();
    await Promise.all([deviceToken(w.t, device), deviceToken(w.t, device)]);
    expect(await stored('device.offline', device)).toBe(2);
    expect(await stored('device.online', device)).toBe(2);
    await received('device.online', device, 2);
    await setThreshold(null).expect(200);
  });

  it('sends device.battery_low once per crossing, again only after 10 points above the mark', async () => {
    const device = await createDevice(w.t.app, w.admin.orgId);
    const token = await deviceToken(w.t, device);
    const low = async (pct: number) => {
      await heartbeat(token, { battery_pct: pct, firmware_version: '2.4.1' }).expect(204);
      return stored('device.battery_low', device);
    };
    expect(await low(19)).toBe(1);
    expect(await received('device.battery_low', device)).toMatchObject({
      battery_pct: 19,
      health: 'online',
    });
    expect(await low(15)).toBe(1);
    expect(await low(25)).toBe(1); // above the mark, but not 10 points above: still flagged
    expect(await low(15)).toBe(1); // so under it again sends nothing
    expect(await low(29)).toBe(1);
    expect(await low(19)).toBe(1);
    expect(await low(30)).toBe(1); // 10 points above 20: the flag is cleared, no event
    const self = await http()
      .get('/api/device/v1/self')
      .set('Authorization', `Bearer ${token}`)
      .expect(200);
    expect(self.body).toMatchObject({ battery_pct: 30, firmware_version: '2.4.1' });
    await Promise.all([low(10), low(10)]);
    expect(await stored('device.battery_low', device)).toBe(2);
    expect(await received('device.battery_low', device, 2)).toMatchObject({ battery_pct: 10 });
  });

  it('filters the list by health, in keyset pages', async () => {
    await setThreshold(null).expect(200);
    const never = await createDevice(w.t.app, w.admin.orgId);
    const seen = await createDevice(w.t.app, w.admin.orgId);
    await deviceToken(w.t, seen);
    const ids = async (health: string) => {
      const found: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?health=${health}&limit=1${cursor ? `&cursor=${cursor}` : ''}`;
        const res = await http().get(`/api/v1/devices${query}`).set('Cookie', w.admin.cookie);
        expect(res.status).toBe(200);
        const body = res.body as DeviceListDto;
        expect(body.items.every((i) => i.health === health)).toBe(true);
        found.push(...body.items.map((i) => i.device_id));
        cursor = body.next_cursor;
      } while (cursor !== null);
      return found;
    };
    const neverSeen = await ids('never_seen');
    const online = await ids('online');
    expect(neverSeen).toContain(never.deviceId);
    expect(neverSeen).not.toContain(seen.deviceId);
    expect(online).toContain(seen.deviceId);
    expect(online).not.toContain(never.deviceId);
    expect(await ids('offline')).not.toContain(seen.deviceId);
    const bad = await http().get('/api/v1/devices?health=asleep').set('Cookie', w.admin.cookie);
    expect(bad.status).toBe(400);
  });
});
