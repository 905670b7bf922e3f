import { createHash, generateKeyPairSync } from 'node:crypto';
import { algorithmsFor, deviceKeyFrom, DeviceKeyError, DevicePublicJwk } from './device-key';

const publicJwk = (kind: 'ec' | 'ed25519'): DevicePublicJwk => {
  const pair =
    kind === 'ec'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : generateKeyPairSync('ed25519');
  return pair.publicKey.export({ format: 'jwk' }) as DevicePublicJwk;
};
const b64 = (bytes: number[]) => Buffer.from(bytes).toString('base64url');

describe('deviceKeyFrom', () => {
  it('keeps the public members of a P-256 key, with its RFC 7638 thumbprint as kid', async () => {
    // RFC 7638 section 3.1 gives an RSA example only; this one is checked against the definition.
    const jwk = publicJwk('ec');
    const key = await deviceKeyFrom(jwk);
    const canonical = JSON.stringify({ crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y });
    const expected = createHash('sha256').update(canonical).digest('base64url');
    expect(key.thumbprint).toBe(expected);
    expect(key.jwk).toEqual({ kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y, kid: expected });
    expect(algorithmsFor(key.jwk)).toEqual(['ES256']);
  });

  it('keeps a given kid and alg, and allows only that alg', async () => {
    const key = await deviceKeyFrom({ ...publicJwk('ed25519'), kid: 'unit-7', alg: 'EdDSA' });
    expect(key.jwk).toMatchObject({ kty: 'OKP', crv: 'Ed25519', kid: 'unit-7', alg: 'EdDSA' });
    expect(key.thumbprint).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(algorithmsFor(key.jwk)).toEqual(['EdDSA']);
  });

  it('refuses a point that is not on the curve, or a small-order Ed25519 point', async () => {
    const ec = publicJwk('ec');
    const notOnCurve = { ...ec, y: b64(Array(32).fill(1)) };
    await expect(deviceKeyFrom(notOnCurve)).rejects.toThrow(/not a point on the P-256/);
    // y = 2 has no x on edwards25519; y = 1 is the identity (order 1).
    const ed = publicJwk('ed25519');
    await expect(deviceKeyFrom({ ...ed, x: b64([2, ...Array(31).fill(0)]) })).rejects.toThrow(
      /not a point on the Ed25519/,
    );
    await expect(deviceKeyFrom({ ...ed, x: b64([1, ...Array(31).fill(0)]) })).rejects.toThrow(
      /small-order/,
    );
  });

  it.each([
    ['a curve of another type', { kty: 'OKP', crv: 'P-256' }],
    ['an alg of another curve', { alg: 'EdDSA' }],
    ['an encryption key', { use: 'enc' }],
    ['an EC key without y', { y: undefined }],
    ['a short coordinate', { x: b64([1, 2, 3]) }],
  ])('refuses %s', async (_label, change) => {
    await expect(deviceKeyFrom({ ...publicJwk('ec'), ...change })).rejects.toBeInstanceOf(
      DeviceKeyError,
    );
  });

  it('refuses an Ed25519 key with a y', async () => {
    const ed = publicJwk('ed25519');
    await expect(deviceKeyFrom({ ...ed, y: ed.x })).rejects.toThrow(/must not have y/);
  });
});
