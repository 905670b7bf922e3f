import { DataSource } from 'typeorm';
import { runCli } from '../support/cli';
import { DeviceService } from '../../src/device/registry/device.service';
import { signIn } from '../support/auth';
import { deviceToken } from '../support/devices';
import { createDevice, createOrg } from '../support/factories';
import { baseSeconds, eventsFor, newRecord, send, TestRecord } from '../support/subscriptions';
import { testDatabaseUrl } from '../support/test-app';
import { eventually, ReceivedDelivery, verifies } from '../support/webhook-receiver';
import { addEndpoint, webhookWorld, WebhookWorld } from '../outgoing-webhooks/support';

/**
 * After the payment (contract section 10): a device shipped for a paid record, its activation by
 * the device's first token, its return asked when the record is canceled. One app, one receiver.
 */
describe('shipping: PUT /api/v1/subscriptions/{id}/device', () => {
  let w: WebhookWorld;
  let secret: string;
  /** A member of the fulfilment organization: any role ships. */
  let member: string;
  const sql = <T>(text: string, params: unknown[] = []) =>
    w.t.app.get(DataSource).query<T[]>(text, params);

  beforeAll(async () => {
    w = await webhookWorld();
    secret = (await addEndpoint(w.t, w.admin.cookie, { url: w.receiver.url })).secret;
    member = (await signIn(w.t, { orgId: w.fulfilmentOrgId, role: 'member' })).cookie;
  });
  afterAll(() => w?.close());

  const ship = (id: string, body: unknown, cookie = member) =>
    w.t
      .http()
      .put(`/api/v1/subscriptions/${id}/device`)
      .set('Cookie', cookie)
      .send(body as object);

  async function paid(): Promise<TestRecord> {
    const r = await newRecord(w.t);
    await send(w.t, eventsFor(r).completed(baseSeconds()));
    return r;
  }
  const paidRecord = async () => (await paid()).sub.id;
  const newDevice = async () => createDevice(w.t.app, w.fulfilmentOrgId);

  /** The one delivery of `type` about this record (or device), verified as an integrator would. */
  async function received(type: string, match: (d: ReceivedDelivery) => boolean) {
    const d = await eventually(`${type} received`, () => w.receiver.of(type).find(match));
    expect(verifies(secret, d)).toBe(true);
    return d;
  }
  const about = (id: string) => (d: ReceivedDelivery) => d.json.data.id === id;
  const stored = async (type: string, id: string) =>
    (
      await sql<{ n: number }>(
        'SELECT count(*)::int AS n FROM outgoing_events WHERE type = $1 AND subject_id = $2',
        [type, id],
      )
    )[0].n;

  it('ships, activates once on the first token, and asks the device back when canceled', async () => {
    const r = await paid();
    const id = r.sub.id;
    const device = await newDevice();
    const body = { device_id: device.deviceId, carrier: 'UPS', tracking_number: '1Z999AA1' };
    const res = await ship(id, body).expect(200);
    const assignedAt = w.clock.now().toISOString();
    const shipped = {
      device_id: device.deviceId,
      assigned_at: assignedAt,
      activated_at: null,
      carrier: 'UPS',
      tracking_number: '1Z999AA1',
    };
    expect(res.body).toMatchObject({ id, status: 'paid', device: shipped });

    const told = await received('subscription.shipped', about(id));
    expect(told.json.data).toMatchObject({ id, device: shipped });
    expect(told.json.data).not.toHaveProperty('history');
    // Sealed at rest: the tracking number is in no column, the carrier plainly.
    const [row] = await sql<Record<string, string>>(
      'SELECT personal, device_carrier FROM subscriptions WHERE id = $1',
      [id],
    );
    expect(row.device_carrier).toBe('UPS');
    expect(
      JSON.stringify(await sql('SELECT * FROM subscriptions WHERE id = $1', [id])),
    ).not.toMatch(/1Z999AA1/);
    // The detail shows it; a list item does not.
    const detail = await w.t.http().get(`/api/v1/subscriptions/${id}`).set('Cookie', member);
    expect(detail.body.device).toEqual(shipped);
    const list = await w.t.http().get('/api/v1/subscriptions?limit=5').set('Cookie', member);
    expect(list.body.items[0]).not.toHaveProperty('device');

    // The same details again: nothing changes, no one is told.
    await ship(id, body).expect(200, res.body);
    expect(await stored('subscription.shipped', id)).toBe(1);
    // New shipping details for the same unit: told again, the unit keeps its assignment.
    const again = await ship(id, { ...body, tracking_number: '1Z999AA2' }).expect(200);
    expect(again.body.device).toEqual({ ...shipped, tracking_number: '1Z999AA2' });
    expect(await stored('subscription.shipped', id)).toBe(2);

    w.clock.advance(5);
    // Two first tokens at once: one activation, told once.
    await Promise.all([deviceToken(w.t, device), deviceToken(w.t, device)]);
    const activated = await received('subscription.activated', about(id));
    const activatedAt = w.clock.now().toISOString();
    expect(activated.json.data).toMatchObject({ device: { activated_at: activatedAt } });
    await deviceToken(w.t, device);
    expect(await stored('subscription.activated', id)).toBe(1);

    await send(w.t, eventsFor(r).deleted(baseSeconds() + 10));
    const back = await received(
      'device.return_requested',
      (d) => d.json.data.subscription_id === id,
    );
    expect(back.json.data).toEqual({ device_id: device.deviceId, subscription_id: id });
    // Never switched off by a payment event: the device keeps working.
    await deviceToken(w.t, device);
    // And it may go to another home now.
    await ship(await paidRecord(), { device_id: device.deviceId }).expect(200);
  });

  it('a replacement unit replaces the first, and the first is asked back', async () => {
    const id = await paidRecord();
    const [first, second] = [await newDevice(), await newDevice()];
    await ship(id, { device_id: first.deviceId }).expect(200);
    await deviceToken(w.t, first);
    w.clock.advance(1);
    const res = await ship(id, { device_id: second.deviceId, carrier: 'DHL' }).expect(200);
    expect(res.body.device).toEqual({
      device_id: second.deviceId,
      assigned_at: w.clock.now().toISOString(),
      activated_at: null,
      carrier: 'DHL',
      tracking_number: null,
    });
    const back = await received(
      'device.return_requested',
      (d) => d.json.data.subscription_id === id,
    );
    expect(back.json.data).toEqual({ device_id: first.deviceId, subscription_id: id });
    // The first unit's tokens activate nothing now; the second's does.
    await deviceToken(w.t, first);
    expect(await stored('subscription.activated', id)).toBe(1);
    await deviceToken(w.t, second);
    expect(await stored('subscription.activated', id)).toBe(2);
  });

  it('409: a record not paid or past_due, a deactivated device, a device another live record holds', async () => {
    const pending = (await newRecord(w.t)).sub.id;
    const device = await newDevice();
    const refused = await ship(pending, { device_id: device.deviceId }).expect(409);
    expect(refused.body).toMatchObject({ code: 'conflict' });

    const off = await newDevice();
    await w.t.app.get(DeviceService).deactivate(w.fulfilmentOrgId, off.deviceId);
    await ship(await paidRecord(), { device_id: off.deviceId }).expect(409);

    await ship(await paidRecord(), { device_id: device.deviceId }).expect(200);
    const held = await ship(await paidRecord(), { device_id: device.deviceId }).expect(409);
    expect(held.body.detail).toMatch(/another live/);
  });

  it('two records asking for one device at once: one 200, one 409', async () => {
    const device = await newDevice();
    const [a, b] = [await paidRecord(), await paidRecord()];
    const answers = await Promise.all([
      ship(a, { device_id: device.deviceId }),
      ship(b, { device_id: device.deviceId }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const holders = await sql('SELECT id FROM subscriptions WHERE device_id = $1', [
      device.deviceId,
    ]);
    expect(holders).toHaveLength(1);
  });

  it('404: another organization’s device, an unknown device, an unknown record', async () => {
    const id = await paidRecord();
    const theirs = await createDevice(w.t.app, (await createOrg(w.t.app)).id);
    const res = await ship(id, { device_id: theirs.deviceId }).expect(404);
    expect(res.body).toMatchObject({ code: 'not_found' });
    await ship(id, { device_id: 'never-registered' }).expect(404);
    const device = await newDevice();
    await ship('5b0c8a4e-0000-4000-8000-000000000000', { device_id: device.deviceId }).expect(404);
    await ship('not-a-uuid', { device_id: device.deviceId }).expect(404);
  });

  it('403 for a user outside the fulfilment organization', async () => {
    const outsider = (await signIn(w.t, { role: 'admin' })).cookie;
    const device = await newDevice();
    const res = await ship(await paidRecord(), { device_id: device.deviceId }, outsider);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'forbidden' });
  });

  it('400 for bad input, before anything is read', async () => {
    const id = await paidRecord();
    const long = 'x'.repeat(101);
    for (const body of [
      {},
      { device_id: 42 },
      { device_id: 'Upper-Case' },
      { device_id: 'd'.repeat(129) },
      { device_id: 'dev-1', carrier: long },
      { device_id: 'dev-1', tracking_number: long },
      { device_id: 'dev-1', carrier: null },
      { device_id: 'dev-1', tracking_number: 7 },
      { device_id: 'dev-1', carrier: ' UPS' },
    ]) {
      const res = await ship(id, body);
      expect([res.status, res.body.code, body]).toEqual([400, 'validation_failed', body]);
    }
  });

  it('subscription:ship does the same from the command line', async () => {
    Object.assign(process.env, {
      DATABASE_URL: testDatabaseUrl(),
      DATABASE_POOL_SIZE: '2',
      FULFILMENT_ORG_ID: w.fulfilmentOrgId,
    });
    const id = await paidRecord();
    const device = await newDevice();
    const bad = await runCli([
      'subscription:ship',
      id,
      '--device',
      device.deviceId,
      '--carrier',
      'x'.repeat(101),
    ]);
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/carrier/) });
    const result = await runCli([
      'subscription:ship',
      id,
      '--device',
      device.deviceId,
      '--tracking-number',
      'T1',
    ]);
    expect(result).toMatchObject({ code: 0 });
    expect(JSON.parse(result.stdout ?? '')).toMatchObject({
      id,
      device: { device_id: device.deviceId, tracking_number: 'T1', carrier: null },
    });
    // Stored with its change (the CLI runs on the real clock, the app on a fake one: not waited for).
    expect(await stored('subscription.shipped', id)).toBe(1);
    const [audit] = await sql<{ actor_type: string }>(
      "SELECT actor_type FROM audit_events WHERE action = 'subscription.shipped' AND subject_id = $1",
      [id],
    );
    expect(audit).toEqual({ actor_type: 'cli' });
    const taken = await runCli([
      'subscription:ship',
      await paidRecord(),
      '--device',
      device.deviceId,
    ]);
    expect(taken).toMatchObject({ code: 1, stderr: expect.stringMatching(/another live/) });
  });

  it('GET shippable-devices: active devices no live record holds, a page at a time', async () => {
    const list = (query: string, cookie = member) =>
      w.t.http().get(`/api/v1/subscriptions/shippable-devices${query}`).set('Cookie', cookie);
    const all = async (): Promise<string[]> => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const q: string = cursor ? `?limit=2&cursor=${cursor}` : '?limit=2';
        const page = await list(q).expect(200);
        expect(page.headers['cache-control']).toBe('no-store');
        ids.push(...(page.body.items as { device_id: string }[]).map((d) => d.device_id));
        cursor = page.body.next_cursor as string | null;
      } while (cursor);
      return ids;
    };
    const free = await newDevice();
    const held = await newDevice();
    const gone = await newDevice();
    const elsewhere = await createDevice(w.t.app, (await createOrg(w.t.app)).id);
    await ship(await paidRecord(), { device_id: held.deviceId }).expect(200);
    await sql("UPDATE devices SET status = 'deactivated' WHERE device_id = $1", [gone.deviceId]);

    const ids = await all();
    expect(ids).toContain(free.deviceId);
    for (const d of [held, gone, elsewhere]) expect(ids).not.toContain(d.deviceId);
    expect([...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);

    await list('?cursor=bogus').expect(400);
    await list('?limit=201').expect(400);
    const outsider = (await signIn(w.t, { role: 'admin' })).cookie;
    await list('', outsider).expect(403);
  });
});
