import { generateKeyPairSync, KeyObject, randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { Device } from '../../src/device/device.entity';
import type { TestApp } from './test-app';

/** Gets a token for a registered device through the real POST /auth/device. */
export async function deviceToken(t: TestApp, device: Device): Promise<string> {
  const res = await t
    .http()
    .post('/auth/device')
    .send({ device_id: device.deviceId, model: device.model, provider: device.provider })
    .expect(200);
  return (res.body as { access_token: string }).access_token;
}

export interface ForgeOptions {
  key: KeyObject | string;
  claims?: Record<string, unknown>;
  header?: Record<string, unknown>;
  algorithm?: string;
}

/** A token built by hand, to prove the guard refuses each way a token can be wrong. */
export function forgeDeviceToken(device: Device, opts: ForgeOptions): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const algorithm = opts.algorithm ?? 'HS256';
  const key = typeof opts.key === 'string' ? new TextEncoder().encode(opts.key) : opts.key;
  return new SignJWT({
    sub: device.deviceId,
    org_id: device.orgId,
    aud: 'device',
    jti: randomUUID(),
    iat: now,
    exp: now + 300,
    ...opts.claims,
  })
    .setProtectedHeader({ alg: algorithm, typ: 'device+jwt', ...opts.header })
    .sign(key);
}

/** An unsigned token (`alg: none`) with the given claims. */
export function unsignedToken(claims: Record<string, unknown>, header: object = {}): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none', typ: 'device+jwt', ...header })}.${part(claims)}.`;
}

/** Decodes a JWT's header and payload without checking anything (for assertions only). */
export function decodeJwt(token: string): {
  header: Record<string, unknown>;
  payload: Record<string, unknown>;
} {
  const [h, p] = token.split('.');
  const parse = (s: string) =>
    JSON.parse(Buffer.from(s, 'base64url').toString('utf8')) as Record<string, unknown>;
  return { header: parse(h), payload: parse(p) };
}

/** A device's key pair, as firmware would make it; `jwk` is the public half to register. */
export interface DeviceKeyPair {
  privateKey: KeyObject;
  jwk: { kty: string; crv: string; x: string; y?: string };
  alg: 'ES256' | 'EdDSA';
}

export function deviceKeyPair(kind: 'ec' | 'ed25519' = 'ec'): DeviceKeyPair {
  const { privateKey, publicKey } =
    kind === 'ec'
      ? generateKeyPairSync('ec', { namedCurve: 'P-256' })
      : generateKeyPairSync('ed25519');
  const jwk = publicKey.export({ format: 'jwk' }) as DeviceKeyPair['jwk'];
  return { privateKey, jwk, alg: kind === 'ec' ? 'ES256' : 'EdDSA' };
}

export interface AssertionOptions {
  claims?: Record<string, unknown>;
  header?: Record<string, unknown>;
  /** Seconds since the epoch, for a test that moves the service's clock. */
  now?: number;
  audience?: string;
}

/** A device's signed assertion for POST /auth/device, valid unless `opts` says otherwise. */
export function signAssertion(
  t: TestApp,
  deviceId: string,
  pair: DeviceKeyPair,
  opts: AssertionOptions = {},
): Promise<string> {
  const now = opts.now ?? Math.floor(Date.now() / 1000);
  return new SignJWT({
    iss: deviceId,
    sub: deviceId,
    aud: opts.audience ?? `${t.config.baseUrl}/auth/device`,
    jti: randomUUID(),
    iat: now,
    exp: now + 60,
    ...opts.claims,
  })
    .setProtectedHeader({ alg: pair.alg, ...opts.header })
    .sign(pair.privateKey);
}

/** The token request of a device with a key: its identity and a fresh assertion. */
export async function provedClaim(
  t: TestApp,
  device: Device,
  pair: DeviceKeyPair,
  opts: AssertionOptions = {},
): Promise<Record<string, string>> {
  return {
    device_id: device.deviceId,
    model: device.model,
    provider: device.provider,
    assertion: await signAssertion(t, device.deviceId, pair, opts),
  };
}
