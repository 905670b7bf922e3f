import type { ExecutionContext } from '@nestjs/common';
import { DeviceError } from './device.error';
import { DeviceBearerGuard } from './device-bearer.guard';
import type { DeviceTokenService } from './device-token.service';
import { Device } from './device.entity';
import type { DeviceService } from './device.service';

describe('DeviceBearerGuard', () => {
  const verify = jest.fn();
  const findActive = jest.fn();
  const guard = new DeviceBearerGuard(
    { verify } as unknown as DeviceTokenService,
    { findActive } as unknown as DeviceService,
  );
  const device = Object.assign(new Device(), { publicKeyThumbprint: 'thumb' });
  const claims = { deviceId: 'sensor-1', orgId: 'org-1', jkt: 'thumb' };
  const run = (authorization?: string) => {
    const req: Record<string, unknown> = { headers: { authorization } };
    const ctx = {
      switchToHttp: () => ({ getRequest: () => req }),
    } as unknown as ExecutionContext;
    return { req, result: guard.canActivate(ctx) };
  };
  const refusal = async (authorization?: string) => {
    const err: unknown = await run(authorization).result.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DeviceError);
    expect(err).toMatchObject({
      code: 'unauthenticated',
      headers: { 'WWW-Authenticate': 'Bearer realm="device"' },
    });
  };

  beforeEach(() => {
    verify.mockReset().mockResolvedValue(claims);
    findActive.mockReset().mockResolvedValue(device);
  });

  it('puts the verified, active device on the request', async () => {
    const { req, result } = run('Bearer a.b.c');
    await expect(result).resolves.toBe(true);
    expect(verify).toHaveBeenCalledWith('a.b.c');
    expect(findActive).toHaveBeenCalledWith('sensor-1', 'org-1');
    expect(req.device).toBe(device);
  });

  it('reads only an Authorization: Bearer header', async () => {
    for (const header of [undefined, '', 'Basic a.b.c', 'a.b.c', 'Bearer ', 'Bearer a b']) {
      await refusal(header);
    }
    expect(verify).not.toHaveBeenCalled();
  });

  it('refuses a token that does not verify, or whose device is no longer active', async () => {
    verify.mockResolvedValueOnce(null);
    await refusal('Bearer a.b.c');
    findActive.mockResolvedValueOnce(null);
    await refusal('Bearer a.b.c');
  });

  it('refuses a token bound to a key the device no longer holds', async () => {
    verify.mockResolvedValue({ ...claims, jkt: 'old-thumb' });
    await refusal('Bearer a.b.c');
    verify.mockResolvedValue({ ...claims, jkt: 'thumb' });
    await expect(run('Bearer a.b.c').result).resolves.toBe(true);
  });

  it('refuses a token issued before the device had a key, once it has one', async () => {
    verify.mockResolvedValue({ deviceId: 'sensor-1', orgId: 'org-1' });
    await refusal('Bearer a.b.c');
    findActive.mockResolvedValueOnce(Object.assign(new Device(), { publicKeyThumbprint: null }));
    await expect(run('Bearer a.b.c').result).resolves.toBe(true);
  });

  it('lets a real fault (the registry cannot be read) through as itself, not as a 401', async () => {
    const fault = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    findActive.mockRejectedValue(fault);
    await expect(run('Bearer a.b.c').result).rejects.toBe(fault);
  });
});
