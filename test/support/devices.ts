import { randomUUID } from 'node:crypto';
import type { KeyObject } from 'node:crypto';
import { sign, SignOptions } from 'jsonwebtoken';
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
  algorithm?: SignOptions['algorithm'];
}

/** A token built by hand, to prove the guard refuses each way a token can be wrong. */
export function forgeDeviceToken(device: Device, opts: ForgeOptions): string {
  const now = Math.floor(Date.now() / 1000);
  const algorithm = opts.algorithm ?? 'HS256';
  return sign(
    {
      sub: device.deviceId,
      org_id: device.orgId,
      aud: 'device',
      jti: randomUUID(),
      iat: now,
      exp: now + 300,
      ...opts.claims,
    },
    opts.key,
    { algorithm, header: { alg: algorithm, typ: 'device+jwt', ...opts.header } },
  );
}

/** An unsigned token (`alg: none`) with the given claims. */
export function unsignedToken(claims: Record<string, unknown>): string {
  const part = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
  return `${part({ alg: 'none', typ: 'device+jwt' })}.${part(claims)}.`;
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
