import { createSecretKey } from 'node:crypto';
import type { ExecutionContext } from '@nestjs/common';
import { SignJWT } from 'jose';
import { AppConfig } from '../../config/app-config';
import { DeviceError } from '../device.error';
import { DeviceBearerGuard } from './device-bearer.guard';
import { DeviceJwtStrategy } from './device-jwt.strategy';
import { Device } from '../device.entity';
import type { DeviceService } from '../registry/device.service';
import { signDeviceToken } from './device-token.jwt';

describe('DeviceBearerGuard with the device-jwt strategy', () => {
  const config = AppConfig.fromEnv({
    DEVICE_TOKEN_SECRET: 'unit-test-device-token-secret-0123456789',
  });
  const key = config.deviceToken.secret;
  const NOW = Date.parse('2026-05-01T12:00:00Z') / 1000;
  let now = NOW;
  const clock = { now: () => new Date(now * 1000) };
  const findActive = jest.fn();
  // Registers itself with Passport under 'device-jwt', as Nest does at boot.
  new DeviceJwtStrategy(config, clock, { findActive } as unknown as DeviceService);
  const guard = new DeviceBearerGuard();
  const device = Object.assign(new Device(), { publicKeyThumbprint: 'thumb' });
  const orgId = '6f1c1a52-0000-4000-8000-000000000001';
  const content = {
    deviceId: 'sensor-1',
    orgId,
    jkt: 'thumb' as string | null,
    jti: 'j-1',
    issuedAt: NOW,
    expiresAt: NOW + 60,
  };
  const token = signDeviceToken(content, key);

  const run = (authorization?: string) => {
    const req: Record<string, unknown> = { headers: { authorization } };
    const ctx = {
      switchToHttp: () => ({ getRequest: () => req, getResponse: () => ({}) }),
    } as unknown as ExecutionContext;
    return { req, result: guard.canActivate(ctx) as Promise<boolean> };
  };
  const refusal = async (authorization?: string) => {
    const err: unknown = await run(authorization).result.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeviceError);
    expect(err).toMatchObject({
      code: 'unauthenticated',
      headers: { 'WWW-Authenticate': 'Bearer realm="device"' },
    });
  };
  /** A token with the right key, built by hand: each way a token can be wrong. */
  const forge = (header: object, claims: object, secret: Parameters<SignJWT['sign']>[0] = key) =>
    new SignJWT({ sub: 'sensor-1', org_id: orgId, aud: 'device', jti: 'j', ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'device+jwt', ...header })
      .sign(secret);

  beforeEach(() => {
    now = NOW;
    findActive.mockReset().mockResolvedValue(device);
  });

  it('puts the verified, active device on the request (req.device, not req.user)', async () => {
    const { req, result } = run(`Bearer ${token}`);
    await expect(result).resolves.toBe(true);
    expect(findActive).toHaveBeenCalledWith('sensor-1', orgId);
    expect(req.device).toBe(device);
    expect(req).not.toHaveProperty('user');
  });

  it('reads only an Authorization: Bearer header', async () => {
    for (const header of [undefined, '', `Basic ${token}`, token, 'Bearer ', `Bearer ${token} x`]) {
      await refusal(header);
    }
    expect(findActive).not.toHaveBeenCalled();
  });

  it("judges expiry by the Clock, not the machine's time, with no tolerance", async () => {
    now = NOW + 59;
    await expect(run(`Bearer ${token}`).result).resolves.toBe(true);
    now = NOW + 60;
    await refusal(`Bearer ${token}`);
    // Back before it expired: valid again, so each request reads the Clock anew.
    now = NOW + 30;
    await expect(run(`Bearer ${token}`).result).resolves.toBe(true);
    const notBefore = await forge({}, { exp: NOW + 600, nbf: NOW + 10, cnf: { jkt: 'thumb' } });
    now = NOW + 9;
    await refusal(`Bearer ${notBefore}`);
    now = NOW + 10;
    await expect(run(`Bearer ${notBefore}`).result).resolves.toBe(true);
  });

  it.each([
    ['another type', { typ: 'JWT' }, {}],
    ['no type', { typ: undefined }, {}],
    ['another audience', {}, { aud: 'user' }],
    ['no audience', {}, { aud: undefined }],
    ['no exp', {}, { exp: undefined }],
    ['no org_id', {}, { org_id: undefined }],
    ['no jti', {}, { jti: undefined }],
    ['no sub', {}, { sub: undefined }],
    ['a text iat', {}, { iat: 'yesterday' }],
  ])('refuses a right-key token with %s', async (_label, header, claims) => {
    await refusal(`Bearer ${await forge(header, { exp: NOW + 60, ...claims })}`);
    expect(findActive).not.toHaveBeenCalled();
  });

  it('takes the type as jose did: case-insensitive, application/ optional', async () => {
    for (const typ of ['DEVICE+JWT', 'application/device+jwt']) {
      const forged = await forge({ typ }, { exp: NOW + 60, cnf: { jkt: 'thumb' } });
      await expect(run(`Bearer ${forged}`).result).resolves.toBe(true);
    }
  });

  it('refuses another key, another algorithm, alg none and garbage', async () => {
    const other = createSecretKey(Buffer.from('x'.repeat(40)));
    await refusal(`Bearer ${signDeviceToken(content, other)}`);
    await refusal(`Bearer ${await forge({ alg: 'HS512' }, { exp: NOW + 60 })}`);
    const part = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const [, payload, signature] = token.split('.');
    await refusal(`Bearer ${part({ alg: 'none', typ: 'device+jwt' })}.${payload}.`);
    await refusal(`Bearer ${part({ alg: 'none', typ: 'device+jwt' })}.${payload}.${signature}`);
    await refusal(`Bearer ${part({ alg: 'HS256', typ: 'device+jwt' })}.${part({})}.${signature}`);
    await refusal('Bearer not-a-jwt');
    expect(findActive).not.toHaveBeenCalled();
  });

  it('refuses a token whose device is no longer active', async () => {
    findActive.mockResolvedValueOnce(null);
    await refusal(`Bearer ${token}`);
  });

  it('refuses a token bound to a key the device no longer holds', async () => {
    await refusal(`Bearer ${signDeviceToken({ ...content, jkt: 'old-thumb' }, key)}`);
    await expect(run(`Bearer ${token}`).result).resolves.toBe(true);
  });

  it('refuses a token issued before the device had a key, once it has one', async () => {
    const keyless = signDeviceToken({ ...content, jkt: null }, key);
    await refusal(`Bearer ${keyless}`);
    findActive.mockResolvedValueOnce(Object.assign(new Device(), { publicKeyThumbprint: null }));
    await expect(run(`Bearer ${keyless}`).result).resolves.toBe(true);
  });

  it('lets a real fault (the registry cannot be read) through as itself, not as a 401', async () => {
    const fault = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    findActive.mockRejectedValue(fault);
    await expect(run(`Bearer ${token}`).result).rejects.toBe(fault);
  });
});
