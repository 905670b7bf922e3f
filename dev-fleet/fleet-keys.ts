import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  JsonWebKey,
  KeyObject,
  randomUUID,
  sign,
} from 'node:crypto';

/** The curves a device key may be on (docs/devices.md): what firmware's secure element makes. */
export type KeyKind = 'ec' | 'ed25519';

/** A simulated device's key pair; `jwk` is the public half registered as `public_key`. */
export interface FleetKey {
  privateKey: KeyObject;
  jwk: { kty: string; crv: string; x: string; y?: string };
  alg: 'ES256' | 'EdDSA';
}

export function newFleetKey(kind: KeyKind = 'ec'): FleetKey {
  const { privateKey, publicKey } =
    kind === 'ec'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : generateKeyPairSync('ed25519');
  const { kty, crv, x, y } = publicKey.export({ format: 'jwk' }) as FleetKey['jwk'];
  return {
    privateKey,
    jwk: y === undefined ? { kty, crv, x } : { kty, crv, x, y },
    alg: kind === 'ec' ? 'ES256' : 'EdDSA',
  };
}

/** The private half as a JWK, to hand a key to another process (the bench's load core). */
export interface ExportedKey {
  jwk: JsonWebKey;
  alg: FleetKey['alg'];
}

export function exportFleetKey(key: FleetKey): ExportedKey {
  return { jwk: key.privateKey.export({ format: 'jwk' }), alg: key.alg };
}

export function importFleetKey(exported: ExportedKey): FleetKey {
  const privateKey = createPrivateKey({ key: exported.jwk, format: 'jwk' });
  const { kty, crv, x, y } = createPublicKey(privateKey).export({
    format: 'jwk',
  }) as FleetKey['jwk'];
  return {
    privateKey,
    jwk: y === undefined ? { kty, crv, x } : { kty, crv, x, y },
    alg: exported.alg,
  };
}

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * The signed assertion of POST /auth/device (src/device/tokens/device-assertion.verifier.ts): a compact
 * JWS, `iss` = `sub` = device_id, `aud` = `{base_url}/auth/device`, a fresh `jti`, `exp` 60 s
 * ahead. Made with node:crypto directly (synchronous, no library per call): the load core signs
 * thousands of these a second in the bench.
 */
export function signAssertion(
  deviceId: string,
  key: FleetKey,
  audience: string,
  nowSeconds: number,
  jti: string = randomUUID(),
): string {
  const header = b64({ alg: key.alg });
  const payload = b64({
    iss: deviceId,
    sub: deviceId,
    aud: audience,
    jti,
    iat: nowSeconds,
    exp: nowSeconds + 60,
  });
  const input = `${header}.${payload}`;
  // ES256 is the raw r||s pair (RFC 7518 3.4), not DER; Ed25519 takes no digest.
  const signature =
    key.alg === 'ES256'
      ? sign('sha256', Buffer.from(input), { key: key.privateKey, dsaEncoding: 'ieee-p1363' })
      : sign(null, Buffer.from(input), key.privateKey);
  return `${input}.${signature.toString('base64url')}`;
}
