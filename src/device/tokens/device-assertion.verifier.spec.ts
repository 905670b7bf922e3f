import { generateKeyPairSync, KeyObject } from 'node:crypto';
import { SignJWT } from 'jose';
import { AppConfig } from '../../config/app-config';
import { DeviceAssertionVerifier, DeviceProofError } from './device-assertion.verifier';
import { deviceKeyFrom, DevicePublicJwk } from '../registry/device-key';
import type { StoredDeviceKey } from '../device.entity';

describe('DeviceAssertionVerifier', () => {
  const NOW = new Date('2026-05-01T12:00:00Z');
  const now = NOW.getTime() / 1000;
  const verifier = new DeviceAssertionVerifier(
    AppConfig.fromEnv({ BASE_URL: 'https://care.example.com' }),
    { now: () => NOW },
  );
  const aud = 'https://care.example.com/auth/device';
  let ec: { privateKey: KeyObject; key: StoredDeviceKey };
  let ed: { privateKey: KeyObject; key: StoredDeviceKey };

  beforeAll(async () => {
    const make = async (pair: { privateKey: KeyObject; publicKey: KeyObject }) => ({
      privateKey: pair.privateKey,
      key: (await deviceKeyFrom(pair.publicKey.export({ format: 'jwk' }) as DevicePublicJwk)).jwk,
    });
    ec = await make(generateKeyPairSync('ec', { namedCurve: 'P-256' }));
    ed = await make(generateKeyPairSync('ed25519'));
  });

  const assertion = (
    signer: KeyObject,
    alg: string,
    claims: Record<string, unknown> = {},
    header: Record<string, unknown> = {},
  ) =>
    new SignJWT({
      iss: 'sensor-1',
      sub: 'sensor-1',
      aud,
      jti: 'j-1',
      iat: now,
      exp: now + 60,
      ...claims,
    })
      .setProtectedHeader({ alg, ...header })
      .sign(signer);
  const reasonOf = (promise: Promise<unknown>) =>
    promise.then(
      () => 'accepted',
      (e: unknown) => (e instanceof DeviceProofError ? e.reason : `threw ${String(e)}`),
    );

  it('accepts a valid ES256 or EdDSA assertion, keeping its jti until exp plus the tolerance', async () => {
    await expect(
      verifier.verify(await assertion(ec.privateKey, 'ES256'), 'sensor-1', ec.key),
    ).resolves.toEqual({
      jti: 'j-1',
      acceptableUntil: new Date((now + 90) * 1000),
    });
    const edOk = await assertion(ed.privateKey, 'EdDSA', {}, { kid: ed.key.kid });
    await expect(verifier.verify(edOk, 'sensor-1', ed.key)).resolves.toMatchObject({ jti: 'j-1' });
  });

  it.each([
    ['wrong_audience', { aud: 'https://care.example.com/auth/device/' }, {}],
    ['wrong_issuer', { iss: 'sensor-2' }, {}],
    ['wrong_subject', { sub: 'sensor-2' }, {}],
    ['expired', { exp: now - 31 }, {}],
    ['exp_too_far', { exp: now + 301 }, {}],
    ['iat_in_future', { iat: now + 31 }, {}],
    ['missing_jti', { jti: undefined }, {}],
    ['missing_exp', { exp: undefined }, {}],
    ['invalid_jti', { jti: 'a\u0000b' }, {}],
    ['unknown_kid', {}, { kid: 'another' }],
  ])('refuses with %s', async (reason, claims, header) => {
    const token = await assertion(ec.privateKey, 'ES256', claims, header);
    await expect(reasonOf(verifier.verify(token, 'sensor-1', ec.key))).resolves.toBe(reason);
  });

  it('accepts an exp just inside 5 minutes and an iat inside the tolerance', async () => {
    const token = await assertion(ec.privateKey, 'ES256', { exp: now + 300, iat: now + 30 });
    await expect(reasonOf(verifier.verify(token, 'sensor-1', ec.key))).resolves.toBe('accepted');
  });

  it('refuses another key, an alg that does not fit the key, HS256 with the public key, and none', async () => {
    const other = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey;
    const byOther = await assertion(other, 'ES256');
    await expect(reasonOf(verifier.verify(byOther, 'sensor-1', ec.key))).resolves.toBe(
      'bad_signature',
    );
    const edAsEc = await assertion(ed.privateKey, 'EdDSA');
    await expect(reasonOf(verifier.verify(edAsEc, 'sensor-1', ec.key))).resolves.toBe(
      'alg_not_allowed',
    );
    const hmac = await assertion(
      new TextEncoder().encode(ec.key.x) as unknown as KeyObject,
      'HS256',
    );
    await expect(reasonOf(verifier.verify(hmac, 'sensor-1', ec.key))).resolves.toBe(
      'alg_not_allowed',
    );
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${part({ alg: 'none' })}.${part({ iss: 'sensor-1', sub: 'sensor-1', aud, jti: 'n', exp: now + 60 })}.`;
    await expect(reasonOf(verifier.verify(none, 'sensor-1', ec.key))).resolves.toBe(
      'alg_not_allowed',
    );
    await expect(reasonOf(verifier.verify('garbage', 'sensor-1', ec.key))).resolves.toBe(
      'malformed',
    );
  });
});
