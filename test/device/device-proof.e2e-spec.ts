import { generateKeyPairSync } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Device } from '../../src/device/device.entity';
import { signIn } from '../support/auth';
import { capturedLogs } from '../support/captured-logs';
import {
  decodeJwt,
  deviceKeyPair,
  DeviceKeyPair,
  provedClaim,
  signAssertion,
  unsignedToken,
} from '../support/devices';
import { createDevice, createOrg, unique } from '../support/factories';
import { createTestApp, TestApp } from '../support/test-app';

interface AuditLine {
  audit?: string;
  reason?: string;
  device_id?: string;
  ip?: string;
}

describe('devices prove their key: POST /auth/device with an assertion', () => {
  let t: TestApp;
  let admin: { cookie: string; orgId: string };
  const { lines, options } = capturedLogs({ RATE_LIMIT_DEVICE_AUTH_PER_MINUTE: '1000' });
  beforeAll(async () => {
    t = await createTestApp(options);
    const a = await signIn(t, { role: 'admin' });
    admin = { cookie: a.cookie, orgId: a.user.orgId };
  });
  afterAll(() => t.close());

  /** Registers a device with the pair's public key through the API, as an admin would. */
  const registerWithKey = async (pair: DeviceKeyPair): Promise<Device> => {
    const body = {
      device_id: unique('key'),
      model: 'hub-2',
      provider: 'acme',
      public_key: pair.jwk,
    };
    const res = await t.http().post('/api/v1/devices').set('Cookie', admin.cookie).send(body);
    expect(res.status).toBe(201);
    return {
      deviceId: body.device_id,
      model: 'hub-2',
      provider: 'acme',
      orgId: admin.orgId,
    } as Device;
  };
  const auth = (body: object) => t.http().post('/auth/device').send(body);
  const audits = (): AuditLine[] =>
    lines.map((l) => JSON.parse(l) as AuditLine).filter((l) => l.audit !== undefined);

  it.each(['ec', 'ed25519'] as const)(
    'gives a %s device that signs a valid assertion a token bound to its key (cnf.jkt)',
    async (kind) => {
      const pair = deviceKeyPair(kind);
      const device = await registerWithKey(pair);
      const res = await auth(await provedClaim(t, device, pair)).expect(200);
      const { payload } = decodeJwt(res.body.access_token);
      expect(payload.cnf).toEqual({ jkt: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) });
      const self = await t
        .http()
        .get('/api/device/v1/self')
        .set('Authorization', `Bearer ${res.body.access_token}`)
        .expect(200);
      // The record shows the key as its thumbprint only.
      expect(self.body.public_key_thumbprint).toBe((payload.cnf as { jkt: string }).jkt);
      expect(JSON.stringify(self.body)).not.toContain(pair.jwk.x);
    },
  );

  it('refuses, with one identical 401, every way an assertion can be wrong, and audits why', async () => {
    const pair = deviceKeyPair('ec');
    const device = await registerWithKey(pair);
    const id = device.deviceId;
    const replayed = await provedClaim(t, device, pair);
    await auth(replayed).expect(200);
    const now = Math.floor(Date.now() / 1000);
    const claim = { device_id: id, model: 'hub-2', provider: 'acme' };
    const other = deviceKeyPair('ec');
    const ed = deviceKeyPair('ed25519');
    const cases: [string, object][] = [
      ['replayed', replayed],
      [
        'wrong_audience',
        await provedClaim(t, device, pair, { audience: 'https://elsewhere.example/auth/device' }),
      ],
      ['exp_too_far', await provedClaim(t, device, pair, { claims: { exp: now + 600 } })],
      ['bad_signature', { ...claim, assertion: await signAssertion(t, id, other) }],
      // An Ed25519 signature for a P-256 key, and the classic confusion: HS256 keyed by the public key.
      ['alg_not_allowed', { ...claim, assertion: await signAssertion(t, id, ed) }],
      [
        'alg_not_allowed',
        {
          ...claim,
          assertion: await new SignJWT({
            iss: id,
            sub: id,
            aud: `${t.config.baseUrl}/auth/device`,
            jti: unique('j'),
            exp: now + 60,
          })
            .setProtectedHeader({ alg: 'HS256' })
            .sign(new TextEncoder().encode(JSON.stringify(pair.jwk))),
        },
      ],
      [
        'alg_not_allowed',
        {
          ...claim,
          assertion: unsignedToken(
            {
              iss: id,
              sub: id,
              aud: `${t.config.baseUrl}/auth/device`,
              jti: unique('j'),
              exp: now + 60,
            },
            { typ: 'JWT' },
          ),
        },
      ],
      [
        'expired',
        await provedClaim(t, device, pair, { claims: { exp: now - 120, iat: now - 180 } }),
      ],
      ['wrong_issuer', await provedClaim(t, device, pair, { claims: { iss: 'someone-else' } })],
      ['missing_jti', await provedClaim(t, device, pair, { claims: { jti: undefined } })],
      ['assertion_missing', claim],
    ];
    const bodies: unknown[] = [];
    for (const [reason, body] of cases) {
      lines.length = 0;
      const res = await auth(body);
      expect([reason, res.status]).toEqual([reason, 401]);
      bodies.push(res.body);
      expect(audits()).toEqual([
        expect.objectContaining({
          audit: 'device_token_refused',
          reason,
          device_id: id,
          ip: expect.any(String),
        }),
      ]);
    }
    expect(bodies[0]).toMatchObject({ status: 401, code: 'invalid_device' });
    for (const body of bodies) expect(body).toEqual(bodies[0]);
    // Never the assertion itself in a log line.
    expect(lines.join('')).not.toContain(
      String((replayed as { assertion: string }).assertion).split('.')[2],
    );
  });

  it('still serves a device without a key by the source rule, but refuses an assertion from it', async () => {
    const device = await createDevice(t.app, admin.orgId);
    const claim = { device_id: device.deviceId, model: device.model, provider: device.provider };
    const res = await auth(claim).expect(200);
    expect(decodeJwt(res.body.access_token).payload).not.toHaveProperty('cnf');
    const stray = await signAssertion(t, device.deviceId, deviceKeyPair());
    expect((await auth({ ...claim, assertion: stray })).status).toBe(401);
  });

  describe('PUT /api/v1/devices/{device_id}/public-key', () => {
    const put = (cookie: string, deviceId: string, body: object) =>
      t.http().put(`/api/v1/devices/${deviceId}/public-key`).set('Cookie', cookie).send(body);

    it('rotates the key: the old key fails at once, and so do tokens it earned', async () => {
      const old = deviceKeyPair('ec');
      const device = await registerWithKey(old);
      const earned = (await auth(await provedClaim(t, device, old)).expect(200)).body.access_token;
      const bearer = () =>
        t.http().get('/api/device/v1/self').set('Authorization', `Bearer ${earned}`);
      await bearer().expect(200);
      const signedEarlier = await provedClaim(t, device, old);

      const next = deviceKeyPair('ed25519');
      lines.length = 0;
      const res = await put(admin.cookie, device.deviceId, { public_key: next.jwk }).expect(200);
      expect(res.body).toMatchObject({
        device_id: device.deviceId,
        public_key_thumbprint: expect.any(String),
      });
      expect(res.body).not.toHaveProperty('public_key');
      expect(audits()).toEqual([
        expect.objectContaining({ audit: 'device_key_rotated', device_id: device.deviceId }),
      ]);

      expect((await auth(signedEarlier)).status).toBe(401);
      expect((await bearer()).status).toBe(401);
      await auth(await provedClaim(t, device, next)).expect(200);
    });

    it('is for admins of the same organization only', async () => {
      const device = await registerWithKey(deviceKeyPair());
      const jwk = deviceKeyPair().jwk;
      const member = await signIn(t, { orgId: admin.orgId, role: 'member' });
      expect((await put(member.cookie, device.deviceId, { public_key: jwk })).status).toBe(403);
      const stranger = await signIn(t, { role: 'admin' });
      expect((await put(stranger.cookie, device.deviceId, { public_key: jwk })).status).toBe(404);
      const anonymous = await t
        .http()
        .put(`/api/v1/devices/${device.deviceId}/public-key`)
        .send({ public_key: jwk });
      expect(anonymous.status).toBe(401);
    });

    it('refuses anything but a public EC P-256 or Ed25519 key with 400 naming the field', async () => {
      const device = await registerWithKey(deviceKeyPair());
      const ec = deviceKeyPair('ec').jwk;
      const privateJwk = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({
        format: 'jwk',
      });
      const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({
        format: 'jwk',
      });
      const bad: [object, string][] = [
        [{ public_key: privateJwk }, 'public_key.d'],
        [{ public_key: rsa }, 'public_key.kty'],
        [{ public_key: { ...ec, y: Buffer.alloc(32, 1).toString('base64url') } }, 'public_key'],
        [{ public_key: { ...ec, crv: 'P-384' } }, 'public_key.crv'],
        [{ public_key: { ...ec, x: 'short' } }, 'public_key.x'],
        [{ public_key: { ...ec, extra: 1 } }, 'public_key.extra'],
        [{ public_key: { ...ec, kid: 'a\u0000b' } }, 'public_key.kid'],
        [{ public_key: 'not-an-object' }, 'public_key'],
        [{ public_key: [ec] }, 'public_key'],
        [{}, 'public_key'],
        [{ public_key: ec, more: true }, 'more'],
      ];
      for (const [body, field] of bad) {
        const res = await put(admin.cookie, device.deviceId, body);
        expect([field, res.status, res.body.code]).toEqual([field, 400, 'validation_failed']);
        const errors = res.body.errors as { field: string }[];
        expect(errors.map((e) => e.field)).toContain(field);
      }
      // Registration applies the same rules.
      const create = await t
        .http()
        .post('/api/v1/devices')
        .set('Cookie', admin.cookie)
        .send({ device_id: unique('bad'), model: 'm', provider: 'p', public_key: privateJwk });
      expect(create.status).toBe(400);
    });
  });
});

describe('the failed-attempts limit never refuses a device that proves its key', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { RATE_LIMIT_DEVICE_AUTH_PER_MINUTE: '3', TRUST_PROXY: '1' } });
  });
  afterAll(() => t.close());

  it('blocks a stranger past the ceiling, while the device keeps getting tokens', async () => {
    const pair = deviceKeyPair();
    const device = await createDevice(t.app, (await createOrg(t.app)).id, { publicKey: pair.jwk });
    const from = (ip: string, body: object) =>
      t.http().post('/auth/device').set('X-Forwarded-For', ip).send(body);
    const label = { device_id: device.deviceId, model: 'hub-2', provider: 'acme' };
    for (const n of [1, 2, 3]) expect((await from(`10.9.0.${n}`, label)).status).toBe(401);
    // Per device from all addresses the ceiling is 10x the allowance (30).
    for (let n = 4; n <= 31; n++) await from(`10.9.0.${n}`, label);
    const blocked = await from('10.9.0.40', label);
    expect(blocked.status).toBe(429);
    for (const n of [1, 2, 3, 4, 5]) {
      await from(`10.9.1.${n}`, await provedClaim(t, device, pair)).expect(200);
    }
    // A bad assertion is still refused by the block.
    const forged = await provedClaim(t, device, deviceKeyPair());
    expect((await from('10.9.0.41', forged)).status).toBe(429);
  });
});

describe('DEVICE_REQUIRE_PROOF=true', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { DEVICE_REQUIRE_PROOF: 'true' } });
  });
  afterAll(() => t.close());

  it('refuses a device without a key, and serves one that proves its key', async () => {
    const orgId = (await createOrg(t.app)).id;
    const keyless = await createDevice(t.app, orgId);
    const res = await t
      .http()
      .post('/auth/device')
      .send({ device_id: keyless.deviceId, model: keyless.model, provider: keyless.provider });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe('invalid_device');
    const pair = deviceKeyPair('ed25519');
    const keyed = await createDevice(t.app, orgId, { publicKey: pair.jwk });
    await t
      .http()
      .post('/auth/device')
      .send(await provedClaim(t, keyed, pair))
      .expect(200);
  });
});
