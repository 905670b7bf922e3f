import { AppException } from '../common/errors/app.exception';
import { DeviceBearerGuard } from './device-bearer.guard';
import { Device } from './device.entity';

describe('DeviceBearerGuard.handleRequest', () => {
  const guard = new DeviceBearerGuard();

  it('passes the verified device on', () => {
    const device = new Device();
    expect(guard.handleRequest(null, device)).toBe(device);
  });

  it('answers every refused token with one 401 unauthenticated and a Bearer challenge', () => {
    const err = (() => {
      try {
        return guard.handleRequest(null, false);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(AppException);
    expect(err).toMatchObject({
      code: 'unauthenticated',
      status: 401,
      headers: { 'WWW-Authenticate': 'Bearer realm="device"' },
    });
  });

  it('lets a real fault (the registry cannot be read) through as itself, not as a 401', () => {
    const fault = Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' });
    expect(() => guard.handleRequest(fault, false)).toThrow(fault);
  });
});
