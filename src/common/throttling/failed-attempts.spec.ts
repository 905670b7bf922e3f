import { AppConfig } from '../../config/app-config';
import { DomainError } from '../errors/domain.error';
import { FailedAttempts } from './failed-attempts';
import { RateLimitService } from './rate-limit.service';

describe('FailedAttempts, counted in memory', () => {
  let now = 1_000_000;
  let limits: RateLimitService;
  let failures: FailedAttempts;
  beforeEach(() => {
    now = 1_000_000;
    const config = AppConfig.fromEnv({ RATE_LIMIT_DEVICE_AUTH_PER_MINUTE: '2' });
    limits = new RateLimitService(config, { now: () => new Date(now) });
    failures = new FailedAttempts(limits);
  });
  afterEach(() => limits.onApplicationShutdown());

  const fail = (address: string) =>
    failures.recordFailure('deviceAuthPerMinute', 'sensor-1', address).catch((e: unknown) => e);
  const check = (address: string) => {
    try {
      return failures.assertNotBlocked('deviceAuthPerMinute', 'sensor-1', address);
    } catch (e) {
      return e;
    }
  };

  it('answers at once, without a promise, and blocks per address after the allowance', async () => {
    expect(check('192.0.2.1')).toBeUndefined();
    await fail('192.0.2.1');
    await fail('192.0.2.1');
    expect(check('192.0.2.1')).toBeUndefined();
    expect(await fail('192.0.2.1')).toBeInstanceOf(DomainError);
    expect(check('192.0.2.1')).toMatchObject({ code: 'rate_limited' });
    // Another address is not blocked by this one's failures...
    expect(check('192.0.2.2')).toBeUndefined();
    now += 60_000;
    expect(check('192.0.2.1')).toBeUndefined();
  });

  it('blocks every address once the key failed ten times the allowance from all of them', async () => {
    for (let i = 0; i < 20; i++) await fail(`192.0.2.${i}`);
    expect(check('198.51.100.7')).toBeUndefined();
    expect(await fail('198.51.100.8')).toBeInstanceOf(DomainError);
    expect(check('198.51.100.9')).toMatchObject({ code: 'rate_limited' });
  });
});
