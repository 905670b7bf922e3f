import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { addEndpoint } from '../outgoing-webhooks/support';
import { apiClient } from '../support/api-client';
import { signIn } from '../support/auth';
import { cliJson, runCli } from '../support/cli';
import { deviceKeyPair } from '../support/devices';
import { createDevice, createOrg, unique } from '../support/factories';
import { createTestApp, TestApp, testDatabaseUrl } from '../support/test-app';
import { eventually, verifies, WebhookReceiver } from '../support/webhook-receiver';

type Item = Record<string, unknown>;
interface BatchResult {
  created: string[];
  existing: string[];
  errors: { index: number; code: string; message: string }[];
}

describe('bulk registration: POST /api/v1/devices/batch and device:import', () => {
  let t: TestApp;
  let receiver: WebhookReceiver;
  let admin: { cookie: string; orgId: string };
  let sql: <T>(text: string, params?: unknown[]) => Promise<T[]>;
  beforeAll(async () => {
    // The CLI reads its configuration from the environment, as it does in production.
    process.env.DATABASE_URL = testDatabaseUrl();
    process.env.DATABASE_POOL_SIZE = '2';
    t = await createTestApp();
    receiver = await new WebhookReceiver().start();
    const a = await signIn(t, { role: 'admin' });
    admin = { cookie: a.cookie, orgId: a.user.orgId };
    const ds = t.app.get(DataSource);
    sql = (text, params = []) => ds.query(text, params);
  });
  afterAll(async () => {
    await t.close();
    await receiver.stop();
  });

  const post = (devices: unknown, cookie = admin.cookie) =>
    t.http().post('/api/v1/devices/batch').set('Cookie', cookie).send({ devices });
  const batch = async (devices: Item[], cookie = admin.cookie): Promise<BatchResult> => {
    const res = await post(devices, cookie);
    expect(res.status).toBe(200);
    return res.body as BatchResult;
  };
  const items = (prefix: string, n: number): Item[] =>
    Array.from({ length: n }, (_, i) => ({
      device_id: `${prefix}-${String(i).padStart(4, '0')}`,
      model: 'hub-2',
      provider: 'acme',
    }));
  const ids = (list: Item[]) => list.map((d) => d.device_id as string);
  const count = async (text: string, params: unknown[]) =>
    Number((await sql<{ n: string }>(text, params))[0].n);
  const devicesLike = (prefix: string) =>
    count('SELECT count(*) AS n FROM devices WHERE device_id LIKE $1', [`${prefix}-%`]);
  const eventsOf = (orgId: string) =>
    count(
      "SELECT count(*) AS n FROM outgoing_events WHERE org_id = $1 AND type = 'device.registered'",
      [orgId],
    );
  const auditsOf = (orgId: string) =>
    count(
      "SELECT count(*) AS n FROM audit_events WHERE action = 'device.batch_registered' AND subject_id = $1",
      [orgId],
    );

  it('registers 1 000 devices in one call (the list shows them), and a repeat changes nothing', async () => {
    const a = await signIn(t, { role: 'admin' });
    const orgId = a.user.orgId;
    const devices = items(unique('k').toLowerCase(), 1000);
    // Through the client typed by the OpenAPI document; the body is over the usual 64 KiB.
    const call = apiClient(t);
    const headers = { Cookie: a.cookie };
    const first = await call('post', '/api/v1/devices/batch', {
      body: { devices: devices as never },
      headers,
      expect: 200,
    });
    expect(first.body).toEqual({ created: ids(devices), existing: [], errors: [] });
    const list = await call('get', '/api/v1/devices', {
      headers,
      query: { limit: 200 },
      expect: 200,
    });
    expect(list.body.items.map((d) => d.device_id)).toEqual(ids(devices).slice(0, 200));
    expect(list.body.items[0]).toMatchObject({
      model: 'hub-2',
      provider: 'acme',
      status: 'active',
    });
    expect(await count('SELECT count(*) AS n FROM devices WHERE org_id = $1', [orgId])).toBe(1000);
    expect(await eventsOf(orgId)).toBe(1000);
    // One audit event per 500 ids (the trail's list limit), in a chain that still verifies.
    expect(await auditsOf(orgId)).toBe(2);
    expect(await cliJson(['audit:verify'])).toEqual({ verified: expect.any(Number) });

    const again = await call('post', '/api/v1/devices/batch', {
      body: { devices: devices as never },
      headers,
      expect: 200,
    });
    expect(again.body).toEqual({ created: [], existing: ids(devices), errors: [] });
    expect(await eventsOf(orgId)).toBe(1000);
    expect(await auditsOf(orgId)).toBe(2);
  });

  it('writes nothing when one row of 1 000 is bad, and names its index', async () => {
    const prefix = unique('bad').toLowerCase();
    const devices = items(prefix, 1000);
    devices[537] = { ...devices[537], model: ' padded' };
    const res = await batch(devices);
    expect(res).toEqual({
      created: [],
      existing: [],
      errors: [{ index: 537, code: 'validation_failed', message: expect.stringMatching(/model/) }],
    });
    expect(await devicesLike(prefix)).toBe(0);
  });

  it('gives each bad row its own error, with the rules of POST /api/v1/devices', async () => {
    const prefix = unique('rows').toLowerCase();
    const ok = items(prefix, 8);
    const pair = deviceKeyPair('ec');
    const offCurve = { ...pair.jwk, y: Buffer.alloc(32, 1).toString('base64url') };
    const res = await batch([
      ok[0],
      { ...ok[1], device_id: 'Upper-Case' },
      { ...ok[2], org_id: admin.orgId },
      { ...ok[3], model: 'a'.repeat(101) },
      { ...ok[4], provider: 'tab\there' },
      { ...ok[5], public_key: offCurve },
      { ...ok[6], public_key: null },
      { device_id: ok[7].device_id },
      { ...ok[0] },
    ]);
    expect(res.created).toEqual([]);
    expect(res.errors.map((e) => [e.index, e.code])).toEqual(
      [1, 2, 3, 4, 5, 6, 7, 8].map((i) => [i, 'validation_failed']),
    );
    expect(res.errors[1].message).toMatch(/org_id should not exist/);
    expect(res.errors[6].message).toMatch(/provider/);
    expect(res.errors[7].message).toMatch(/earlier in the batch, at index 0/);
    expect(await devicesLike(prefix)).toBe(0);
  });

  it('refuses conflicts: another model here, any device of another organization', async () => {
    const prefix = unique('cf').toLowerCase();
    const here = await createDevice(t.app, admin.orgId, { deviceId: `${prefix}-here` });
    const other = await createOrg(t.app);
    const there = await createDevice(t.app, other.id, {
      deviceId: `${prefix}-there`,
      model: 'secret-model',
    });
    const res = await batch([
      { device_id: `${prefix}-new`, model: 'hub-2', provider: 'acme' },
      { device_id: here.deviceId, model: 'hub-3', provider: 'acme' },
      { device_id: there.deviceId, model: 'secret-model', provider: 'acme' },
    ]);
    expect(res.errors.map((e) => [e.index, e.code])).toEqual([
      [1, 'device_exists'],
      [2, 'device_exists'],
    ]);
    // Nothing of the other organization's device but that its id is taken.
    expect(res.errors[1].message).toBe('A device with this device_id is already registered.');
    expect(JSON.stringify(res)).not.toMatch(new RegExp(`secret-model|${other.id}`));
    expect(await devicesLike(`${prefix}-new`)).toBe(0);
  });

  it('reports devices already here as existing beside new ones; a key must match if given', async () => {
    const prefix = unique('mix').toLowerCase();
    const pair = deviceKeyPair('ed25519');
    const keyed = await createDevice(t.app, admin.orgId, {
      deviceId: `${prefix}-keyed`,
      publicKey: pair.jwk,
    });
    const plain = { device_id: keyed.deviceId, model: 'hub-2', provider: 'acme' };
    const fresh = { device_id: `${prefix}-fresh`, model: 'hub-2', provider: 'acme' };
    expect(await batch([fresh, plain])).toEqual({
      created: [fresh.device_id],
      existing: [keyed.deviceId],
      errors: [],
    });
    expect((await batch([{ ...plain, public_key: pair.jwk }])).existing).toEqual([keyed.deviceId]);
    const rotated = await batch([{ ...plain, public_key: deviceKeyPair('ed25519').jwk }]);
    expect(rotated.errors).toEqual([
      { index: 0, code: 'device_exists', message: expect.stringMatching(/another public key/) },
    ]);
  });

  it('answers concurrent overlapping batches without a 5xx, each device created once', async () => {
    const devices = items(unique('race').toLowerCase(), 200);
    const answers = await Promise.all(
      [devices, [...devices].reverse(), devices].map((d) => post(d)),
    );
    expect(answers.map((r) => r.status)).toEqual([200, 200, 200]);
    const bodies = answers.map((r) => r.body as BatchResult);
    const created = bodies.flatMap((b) => b.created).sort();
    expect(created).toEqual(ids(devices));
    for (const b of bodies) {
      expect(b.errors).toEqual([]);
      expect([...b.created, ...b.existing].sort()).toEqual(ids(devices));
    }
  });

  it('refuses 1 001 devices (400), a body over 256 KiB (413), members (403), strangers (401)', async () => {
    const over = await post(items('over', 1001));
    expect(over.status).toBe(400);
    expect(over.body).toMatchObject({ code: 'validation_failed', errors: [{ field: 'devices' }] });
    const big = await post([{ device_id: 'big', model: 'm'.repeat(270_000), provider: 'p' }]);
    expect([big.status, big.body.code]).toEqual([413, 'payload_too_large']);
    // The other routes keep 64 KiB.
    const single = await t
      .http()
      .post('/api/v1/devices')
      .set('Cookie', admin.cookie)
      .send({ device_id: 'big', model: 'm'.repeat(70_000), provider: 'p' });
    expect(single.status).toBe(413);
    const member = await signIn(t, { orgId: admin.orgId, role: 'member' });
    expect((await post(items('m', 1), member.cookie)).status).toBe(403);
    const stranger = await t.http().post('/api/v1/devices/batch').send({ devices: [] });
    expect(stranger.status).toBe(401);
    expect((await post([42])).body).toMatchObject({ code: 'validation_failed' });
  });

  it("sends device.registered for each new device to the organization's endpoints", async () => {
    const a = await signIn(t, { role: 'admin' });
    const endpoint = await addEndpoint(t, a.cookie, {
      url: receiver.url,
      event_types: ['device.registered'],
    });
    const devices = items(unique('ev').toLowerCase(), 2);
    expect((await batch(devices, a.cookie)).created).toHaveLength(2);
    await eventually('both delivered', () => receiver.of('device.registered').length === 2);
    const got = receiver.of('device.registered');
    expect(got.every((d) => verifies(endpoint.secret, d))).toBe(true);
    expect(
      got
        .map((d) => d.json.data)
        .sort((x, y) => String(x.device_id).localeCompare(String(y.device_id))),
    ).toEqual(devices.map((d) => ({ ...d, org_id: a.user.orgId, status: 'active' })));
  });

  describe('device:import', () => {
    const dir = mkdtempSync(join(tmpdir(), 'device-import-'));
    const file = (name: string, text: string) => {
      const path = join(dir, name);
      writeFileSync(path, text);
      return path;
    };
    const importing = (path: string) =>
      runCli(['device:import', '--org', admin.orgId, '--file', path]);

    it('imports a CSV (quoted fields too) and prints the result; again: all existing', async () => {
      const p = unique('csv').toLowerCase();
      const path = file(
        'ok.csv',
        `device_id,model,provider\r\n${p}-1,hub-2,acme\r\n"${p}-2","hub, ""2""",acme\r\n`,
      );
      const argv = ['device:import', '--org', admin.orgId, '--file', path];
      const done = await cliJson<BatchResult>(argv);
      expect(done).toEqual({ created: [`${p}-1`, `${p}-2`], existing: [], errors: [] });
      const [row] = await sql<{ model: string }>('SELECT model FROM devices WHERE device_id = $1', [
        `${p}-2`,
      ]);
      expect(row.model).toBe('hub, "2"');
      expect((await cliJson<BatchResult>(argv)).existing).toEqual([`${p}-1`, `${p}-2`]);
    });

    it('exits 1 with the JSON on stdout when a row is bad, and imports nothing', async () => {
      const p = unique('csvbad').toLowerCase();
      const path = file('bad.csv', `device_id,model,provider\n${p}-1,hub-2,acme\nBAD,hub-2,acme\n`);
      const result = await importing(path);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/1 rows refused: nothing imported/);
      expect(JSON.parse(result.stdout ?? '')).toMatchObject({
        created: [],
        errors: [{ index: 1, code: 'validation_failed' }],
      });
      expect(await devicesLike(p)).toBe(0);
    });

    it('refuses a malformed file or one over 1 000 rows with the reason, before anything runs', async () => {
      const broken = await importing(file('broken.csv', 'device_id,model,provider\n"a,b,c\n'));
      expect(broken).toMatchObject({ code: 1, stderr: expect.stringMatching(/line 2: a quoted/) });
      const header = await importing(file('header.csv', 'id,model,provider\na,b,c\n'));
      expect(header.stderr).toMatch(/line 1: the header must be device_id,model,provider/);
      const rows = items('many', 1001).map((d) => `${String(d.device_id)},hub-2,acme`);
      const many = await importing(
        file('many.csv', ['device_id,model,provider', ...rows].join('\n')),
      );
      expect(many).toMatchObject({ code: 1, stderr: expect.stringMatching(/at most 1000/) });
    });

    it('stops reading a file past 2 MiB, a FIFO too (its size is unknown until it is read)', async () => {
      const fifo = join(dir, 'devices.fifo');
      await new Promise<void>((resolve, reject) =>
        spawn('mkfifo', [fifo]).on('exit', (code) =>
          code === 0 ? resolve() : reject(new Error('mkfifo')),
        ),
      );
      // Rows that would parse: without the byte limit the whole 3 MiB is read and refused for its rows.
      const writer = spawn('sh', ['-c', 'yes "dev-x,hub-2,acme" | head -c 3145728 > "$0"', fifo], {
        stdio: 'ignore',
      });
      try {
        const result = await importing(fifo);
        expect(result).toMatchObject({ code: 1, stderr: expect.stringMatching(/is over 2 MiB/) });
      } finally {
        writer.kill();
      }
    });
  });
});
