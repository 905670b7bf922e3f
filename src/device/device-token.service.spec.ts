import { timingSafeEqual } from 'node:crypto';
import { sign, verify } from 'jsonwebtoken';
import type { Repository } from 'typeorm';
import { AppException } from '../common/errors/app.exception';
import { AppConfig } from '../config/app-config';
import { credentialsMatch, DeviceTokenService } from './device-token.service';
import { Device } from './device.entity';

// Counts constant-time comparisons while still doing them.
jest.mock('node:crypto', () => {
  const actual = jest.requireActual<typeof import('node:crypto')>('node:crypto');
  return { ...actual, timingSafeEqual: jest.fn(actual.timingSafeEqual) };
});
const compared = timingSafeEqual as jest.MockedFunction<typeof timingSafeEqual>;

const registered = { model: 'hub-2', provider: 'acme', status: 'active' as const };
const claim = { model: 'hub-2', provider: 'acme' };

describe('credentialsMatch', () => {
  it('is true only for a found, active device with the same model and provider', () => {
    expect(credentialsMatch(registered, claim)).toBe(true);
    expect(credentialsMatch(null, claim)).toBe(false);
    expect(credentialsMatch({ ...registered, status: 'deactivated' }, claim)).toBe(false);
    expect(credentialsMatch(registered, { ...claim, model: 'hub-3' })).toBe(false);
    expect(credentialsMatch(registered, { ...claim, provider: 'Acme' })).toBe(false);
    expect(credentialsMatch(registered, { ...claim, model: 'hub-2 ' })).toBe(false);
  });

  it('does the same comparisons whichever part is wrong', () => {
    const cases: [Parameters<typeof credentialsMatch>[0], typeof claim][] = [
      [registered, claim],
      [null, claim],
      [{ ...registered, status: 'deactivated' }, claim],
      [registered, { ...claim, model: 'x' }],
      [registered, { ...claim, provider: 'a much longer provider name than the stored one' }],
    ];
    const counts = cases.map(([device, c]) => {
      compared.mockClear();
      credentialsMatch(device, c);
      return compared.mock.calls.length;
    });
    expect(counts).toEqual([3, 3, 3, 3, 3]);
  });
});

describe('DeviceTokenService.issue', () => {
  const config = AppConfig.fromEnv({
    DEVICE_TOKEN_SECRET: 'unit-test-device-token-secret-0123456789',
    DEVICE_TOKEN_TTL_SECONDS: '120',
  });
  const device = {
    deviceId: 'sensor-1',
    orgId: '6f1c1a52-0000-4000-8000-000000000001',
    ...registered,
  };
  const repoFinding = (found: typeof device | null) => {
    const query = jest.fn().mockResolvedValue(found ? [found] : []);
    return { repo: { query } as unknown as Repository<Device>, query };
  };

  it('signs sub, org_id, aud, jti and exp with the configured key object', async () => {
    const { repo } = repoFinding(device);
    const out = await new DeviceTokenService(repo, config).issue({
      device_id: 'sensor-1',
      ...claim,
    });
    const decoded = verify(out.access_token, config.deviceToken.secret, {
      algorithms: ['HS256'],
      audience: 'device',
      complete: true,
    });
    expect(decoded.header).toMatchObject({ alg: 'HS256', typ: 'device+jwt' });
    expect(decoded.payload).toMatchObject({ sub: 'sensor-1', org_id: device.orgId });
    const payload = decoded.payload as { exp: number; iat: number; jti: string };
    expect(payload.exp - payload.iat).toBe(120);
    expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
    expect(out).toMatchObject({ token_type: 'Bearer', expires_in: 120 });
  });

  it('writes the same bytes jsonwebtoken signed with the same claims', async () => {
    const { repo } = repoFinding(device);
    const { access_token: token } = await new DeviceTokenService(repo, config).issue({
      device_id: 'sensor-1',
      ...claim,
    });
    const { iat, exp, jti } = JSON.parse(
      Buffer.from(token.split('.')[1], 'base64url').toString('utf8'),
    ) as { iat: number; exp: number; jti: string };
    const expected = sign({ org_id: device.orgId, iat, exp }, config.deviceToken.secret, {
      algorithm: 'HS256',
      header: { alg: 'HS256', typ: 'device+jwt' },
      subject: device.deviceId,
      audience: 'device',
      jwtid: jti,
    });
    expect(token).toBe(expected);
  });

  it('looks up an id that can never match instead of a non-canonical one', async () => {
    const { repo, query } = repoFinding(null);
    const service = new DeviceTokenService(repo, config);
    await expect(service.issue({ device_id: 'A\u0000B', ...claim })).rejects.toBeInstanceOf(
      AppException,
    );
    expect(query).toHaveBeenCalledTimes(1);
    expect(query).toHaveBeenCalledWith(expect.stringContaining('WHERE device_id = $1'), ['#']);
  });

  it('refuses with 401 invalid_device when the device does not match', async () => {
    const { repo } = repoFinding(device);
    const err = await new DeviceTokenService(repo, config)
      .issue({ device_id: 'sensor-1', ...claim, provider: 'other' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppException);
    expect(err).toMatchObject({ code: 'invalid_device', status: 401 });
  });
});
