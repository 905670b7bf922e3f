import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataSource } from 'typeorm';
import { runCli } from '../support/cli';
import { deviceKeyPair, provedClaim } from '../support/devices';
import { createOrg, unique } from '../support/factories';
import { createTestApp, TestApp, testDatabaseUrl } from '../support/test-app';

describe('command line: device:add', () => {
  let t: TestApp;
  let orgId: string;
  beforeAll(async () => {
    // The CLI reads its configuration from the environment, as it does in production.
    process.env.DATABASE_URL = testDatabaseUrl();
    process.env.DATABASE_POOL_SIZE = '2';
    t = await createTestApp();
    orgId = (await createOrg(t.app)).id;
  });
  afterAll(() => t.close());

  const add = (deviceId: string, org = orgId) =>
    runCli([
      'device:add',
      '--org',
      org,
      '--device-id',
      deviceId,
      '--model',
      'hub-2',
      '--provider',
      'acme',
    ]);

  it('registers a device that can then sign in', async () => {
    const deviceId = unique('cli');
    const result = await add(deviceId);
    expect(result.stderr).toBeUndefined();
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout ?? '')).toMatchObject({
      device_id: deviceId,
      org_id: orgId,
      model: 'hub-2',
      provider: 'acme',
      status: 'active',
    });
    const res = await t
      .http()
      .post('/auth/device')
      .send({ device_id: deviceId, model: 'hub-2', provider: 'acme' })
      .expect(200);
    expect(res.body.token_type).toBe('Bearer');
  });

  it('exits 1 with the reason for a duplicate, an unknown org or a non-canonical id', async () => {
    const deviceId = unique('cli');
    expect((await add(deviceId)).code).toBe(0);
    const duplicate = await add(deviceId);
    expect(duplicate).toMatchObject({ code: 1 });
    expect(duplicate.stderr).toMatch(/already registered/);

    const noOrg = await add(unique('cli'), '00000000-0000-4000-8000-000000000000');
    expect(noOrg).toMatchObject({ code: 1 });
    expect(noOrg.stderr).toMatch(/No such organization/);

    const upper = await add('SENSOR-1');
    expect(upper).toMatchObject({ code: 1 });
    expect(upper.stderr).toMatch(/device_id must be canonical/);
  });

  it('exits 1 when a flag is missing', async () => {
    const result = await runCli(['device:add', '--org', orgId, '--device-id', unique('cli')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/--model, --provider/);
  });

  describe('--public-key-file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'device-keys-'));
    const file = (name: string, content: string) => {
      const path = join(dir, name);
      writeFileSync(path, content);
      return path;
    };
    const addWithKey = (deviceId: string, path: string) =>
      runCli([
        'device:add',
        '--org',
        orgId,
        '--device-id',
        deviceId,
        '--model',
        'hub-2',
        '--provider',
        'acme',
        '--public-key-file',
        path,
      ]);

    it('registers the key from a JWK or a PEM file; the device then proves it', async () => {
      for (const kind of ['jwk', 'pem'] as const) {
        const pair = deviceKeyPair(kind === 'jwk' ? 'ed25519' : 'ec');
        const pem = generateKeyPairSync('ec', { namedCurve: 'P-256' });
        const content =
          kind === 'jwk'
            ? JSON.stringify(pair.jwk)
            : pem.publicKey.export({ type: 'spki', format: 'pem' }).toString();
        const signer = kind === 'jwk' ? pair : { ...pair, privateKey: pem.privateKey };
        const deviceId = unique(`cli-${kind}`);
        const result = await addWithKey(deviceId, file(`${deviceId}.${kind}`, content));
        expect(result.stderr).toBeUndefined();
        expect(JSON.parse(result.stdout ?? '')).toMatchObject({
          device_id: deviceId,
          public_key_thumbprint: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
        });
        const device = { deviceId, model: 'hub-2', provider: 'acme' } as never;
        await t
          .http()
          .post('/auth/device')
          .send(await provedClaim(t, device, signer))
          .expect(200);
        // Without the assertion, the device's label alone no longer gets a token.
        await t
          .http()
          .post('/auth/device')
          .send({ device_id: deviceId, model: 'hub-2', provider: 'acme' })
          .expect(401);
      }
    });

    it('exits 1 for a private key, a key off the curve, or a file that is no key', async () => {
      const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const privateJwk = JSON.stringify(ec.privateKey.export({ format: 'jwk' }));
      const privatePem = ec.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
      const offCurve = JSON.stringify({
        ...deviceKeyPair('ec').jwk,
        y: Buffer.alloc(32, 1).toString('base64url'),
      });
      const cases: [string, RegExp][] = [
        [file('private.jwk', privateJwk), /public_key\.d/],
        [file('private.pem', privatePem), /private key/],
        [file('off-curve.jwk', offCurve), /not a point on the P-256 curve/],
        [file('garbage.txt', 'hello'), /neither a JWK/],
        [join(dir, 'missing.jwk'), /ENOENT/],
      ];
      for (const [path, reason] of cases) {
        const result = await addWithKey(unique('cli-bad'), path);
        expect(result.code).toBe(1);
        expect(result.stderr).toMatch(reason);
      }
    });
  });

  it('device:liveness runs one pass and prints {"offline","batches","ms"}; device:list filters by health', async () => {
    const deviceId = unique('cli-quiet');
    expect((await add(deviceId)).code).toBe(0);
    // Heard from an hour ago at a 15-minute threshold: due.
    await t.app.get(DataSource).query(
      `UPDATE devices SET last_seen_at = $2::timestamptz - interval '1 hour',
          offline_after = $2::timestamptz - interval '45 minutes' WHERE device_id = $1`,
      [deviceId, new Date()],
    );
    const offline = async () =>
      JSON.parse(
        (await runCli(['device:list', '--org', orgId, '--health', 'offline'])).stdout ?? '',
      ).items as { device_id: string; health: string }[];
    expect((await offline()).map((d) => d.device_id)).toContain(deviceId);
    const pass = await runCli(['device:liveness']);
    expect(pass.code).toBe(0);
    const printed = JSON.parse(pass.stdout ?? '') as Record<string, number>;
    expect(Object.keys(printed)).toEqual(['offline', 'batches', 'ms']);
    expect(printed.offline).toBeGreaterThanOrEqual(1);
    const [row] = await t.app.get(DataSource).query<{ n: number }[]>(
      `SELECT count(*)::int AS n FROM outgoing_events WHERE type = 'device.offline'
          AND payload::jsonb -> 'data' ->> 'device_id' = $1`,
      [deviceId],
    );
    expect(row.n).toBe(1);
    const bad = await runCli(['device:list', '--org', orgId, '--health', 'asleep']);
    expect(bad.code).toBe(1);
  });

  it("org:update sets the organization's device threshold, as PATCH /api/v1/org, and its devices follow", async () => {
    const deviceId = unique('cli-threshold');
    expect((await add(deviceId)).code).toBe(0);
    const ds = t.app.get(DataSource);
    const seen = new Date('2026-11-27T10:00:00.000Z');
    await ds.query(
      `UPDATE devices SET last_seen_at = $2, offline_after = $2::timestamptz + interval '900 seconds'
        WHERE device_id = $1`,
      [deviceId, seen],
    );
    const deadline = async () => {
      const [row] = await ds.query<{ at: Date }[]>(
        'SELECT offline_after AS at FROM devices WHERE device_id = $1',
        [deviceId],
      );
      return row.at.getTime() - seen.getTime();
    };
    const set = (value: string) =>
      runCli(['org:update', '--org', orgId, '--device-offline-after-seconds', value]);
    const sixty = await set('60');
    expect(sixty.code).toBe(0);
    expect(JSON.parse(sixty.stdout ?? '')).toMatchObject({ device_offline_after_seconds: 60 });
    expect(await deadline()).toBe(60_000);
    for (const bad of ['1', 'soon', '2592001']) {
      const refused = await set(bad);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/device_offline_after_seconds/);
    }
    const back = await set('default');
    expect(JSON.parse(back.stdout ?? '')).toMatchObject({ device_offline_after_seconds: null });
    expect(await deadline()).toBe(900_000);
  });
});
