import { createPublicKey, KeyObject } from 'node:crypto';
import type { StoredDeviceKey } from '../device.entity';
import { joseLib } from '../../common/jwt/jose';

/** The members a device's public JWK may carry (DevicePublicJwkDto checks their shape). */
export interface DevicePublicJwk {
  kty: string;
  crv: string;
  x: string;
  y?: string;
  kid?: string;
  alg?: string;
  use?: string;
}

/** A validated key: what is stored, and its RFC 7638 thumbprint. */
export interface DeviceKey {
  jwk: StoredDeviceKey;
  thumbprint: string;
}

/** Thrown with the reason a JWK is not a usable device key; the caller names the field. */
export class DeviceKeyError extends Error {}

/** The signature algorithms each curve allows (`Ed25519` is RFC 9864's name for EdDSA on it). */
const CURVES = {
  'P-256': { kty: 'EC', bytes: 32, algorithms: ['ES256'] },
  Ed25519: { kty: 'OKP', bytes: 32, algorithms: ['EdDSA', 'Ed25519'] },
} as const;
type Curve = keyof typeof CURVES;

const isCurve = (crv: string): crv is Curve => Object.hasOwn(CURVES, crv);

/**
 * Checks a public JWK as a device key: a supported curve, coordinates of the curve's size that are
 * a real point on it (not a small-order Ed25519 point, for which signatures can be forged), an
 * `alg` that fits the curve; and gives it a `kid` (the thumbprint) when it has none.
 */
export async function deviceKeyFrom(jwk: DevicePublicJwk): Promise<DeviceKey> {
  const { kty, crv, x, y } = jwk;
  if (!isCurve(crv) || CURVES[crv].kty !== kty) {
    throw new DeviceKeyError('public_key must be an EC P-256 or an OKP Ed25519 key');
  }
  if (jwk.alg !== undefined && !(CURVES[crv].algorithms as readonly string[]).includes(jwk.alg)) {
    throw new DeviceKeyError(`public_key alg ${jwk.alg} does not fit the ${crv} curve`);
  }
  if (jwk.use !== undefined && jwk.use !== 'sig') {
    throw new DeviceKeyError('public_key use must be sig');
  }
  if (kty === 'EC' && y === undefined) throw new DeviceKeyError('public_key needs y');
  if (kty === 'OKP' && y !== undefined) throw new DeviceKeyError('public_key must not have y');
  for (const c of kty === 'EC' ? [x, y] : [x]) {
    if (Buffer.from(c ?? '', 'base64url').length !== CURVES[crv].bytes) {
      throw new DeviceKeyError(`public_key coordinates must be ${CURVES[crv].bytes} bytes`);
    }
  }
  assertOnCurve(crv, x, y);
  const members = kty === 'EC' ? { kty, crv, x, y } : { kty, crv, x };
  const thumbprint = await joseLib().calculateJwkThumbprint(members, 'sha256');
  const stored = { ...members, kid: jwk.kid ?? thumbprint, ...(jwk.alg ? { alg: jwk.alg } : {}) };
  return { jwk: stored, thumbprint };
}

/** What an assertion may be signed with under this key. */
export function algorithmsFor(key: StoredDeviceKey): string[] {
  return key.alg ? [key.alg] : [...CURVES[key.crv].algorithms];
}

/** The key as Node's crypto holds it, for jose to verify with. */
export function verifyingKey(key: StoredDeviceKey): KeyObject {
  const { kty, crv, x, y } = key;
  return createPublicKey({ key: { kty, crv, x, ...(y ? { y } : {}) }, format: 'jwk' });
}

function assertOnCurve(crv: Curve, x: string, y: string | undefined): void {
  if (crv === 'P-256') {
    // OpenSSL refuses a P-256 point that is not on the curve.
    try {
      createPublicKey({ key: { kty: 'EC', crv, x, y }, format: 'jwk' });
    } catch {
      throw new DeviceKeyError('public_key is not a point on the P-256 curve');
    }
    return;
  }
  // OpenSSL takes any 32 bytes as an Ed25519 key, so the point is decoded here (an ES module,
  // loaded when first needed).
  /* eslint-disable-next-line @typescript-eslint/no-require-imports */
  const curves = require('@noble/curves/ed25519.js') as typeof import('@noble/curves/ed25519.js');
  const { ed25519 } = curves;
  let smallOrder: boolean;
  try {
    smallOrder = ed25519.Point.fromBytes(Buffer.from(x, 'base64url')).isSmallOrder();
  } catch {
    throw new DeviceKeyError('public_key is not a point on the Ed25519 curve');
  }
  if (smallOrder) throw new DeviceKeyError('public_key is a small-order Ed25519 point');
}
