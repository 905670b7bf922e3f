import type { Jwt } from 'jsonwebtoken';
import { AppConfig } from '../config/app-config';
import { DeviceJwtStrategy } from './device-jwt.strategy';
import { Device } from './device.entity';
import { DeviceService } from './device.service';

describe('DeviceJwtStrategy.validate', () => {
  const device = new Device();
  const findActive = jest.fn();
  const strategy = new DeviceJwtStrategy(AppConfig.fromEnv({}), {
    findActive,
  } as unknown as DeviceService);
  const orgId = '6f1c1a52-0000-4000-8000-000000000001';
  const token = (header: object, payload: object): Jwt => ({
    header: { alg: 'HS256', ...header },
    payload,
    signature: 'x',
  });
  const good = { sub: 'sensor-1', org_id: orgId, aud: 'device', jti: 'j', exp: 1 };

  beforeEach(() => findActive.mockReset().mockResolvedValue(device));

  it('returns the active device the token names', async () => {
    await expect(strategy.validate(token({ typ: 'device+jwt' }, good))).resolves.toBe(device);
    expect(findActive).toHaveBeenCalledWith('sensor-1', orgId);
  });

  it.each([
    ['another header type', { typ: 'JWT' }, good],
    ['no header type', {}, good],
    ['no jti', { typ: 'device+jwt' }, { ...good, jti: undefined }],
    ['no org_id', { typ: 'device+jwt' }, { ...good, org_id: undefined }],
    ['no exp', { typ: 'device+jwt' }, { ...good, exp: undefined }],
    ['no sub', { typ: 'device+jwt' }, { ...good, sub: undefined }],
  ])('refuses %s without asking the registry', async (_label, header, payload) => {
    await expect(strategy.validate(token(header, payload))).resolves.toBe(false);
    expect(findActive).not.toHaveBeenCalled();
  });

  it('refuses when the registry has no active device for it', async () => {
    findActive.mockResolvedValue(null);
    await expect(strategy.validate(token({ typ: 'device+jwt' }, good))).resolves.toBe(false);
  });
});
