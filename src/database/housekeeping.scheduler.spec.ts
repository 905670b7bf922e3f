import { Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { validateEnv } from '../config/env.validation';
import { HousekeepingScheduler } from './housekeeping.scheduler';
import { Housekeeping } from './housekeeping.service';

describe('HousekeepingScheduler', () => {
  const HOUR_MS = 3600 * 1000;
  let runOnce: jest.Mock;
  let stop: jest.Mock;

  beforeEach(() => {
    jest.useFakeTimers();
    runOnce = jest.fn().mockResolvedValue({ deleted: {} });
    stop = jest.fn();
  });
  afterEach(() => jest.useRealTimers());

  const scheduler = (env: Record<string, string>) =>
    new HousekeepingScheduler(new AppConfig(validateEnv(env)), {
      runOnce,
      stop,
    } as unknown as Housekeeping);

  it('runs every HOUSEKEEPING_INTERVAL_SECONDS (default an hour), also with reconcile off', async () => {
    const s = scheduler({ RECONCILE_INTERVAL_SECONDS: '0' });
    s.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(HOUR_MS - 1);
    expect(runOnce).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(runOnce).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(2 * HOUR_MS);
    expect(runOnce).toHaveBeenCalledTimes(3);
    await s.beforeApplicationShutdown();
  });

  it('never runs with HOUSEKEEPING_INTERVAL_SECONDS=0', async () => {
    const s = scheduler({ HOUSEKEEPING_INTERVAL_SECONDS: '0' });
    s.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(48 * HOUR_MS);
    expect(runOnce).not.toHaveBeenCalled();
  });

  it('keeps its timer after a failed pass, and stops it (and the pass) at shutdown', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    runOnce.mockRejectedValueOnce(new Error('database away'));
    const s = scheduler({ HOUSEKEEPING_INTERVAL_SECONDS: '60' });
    s.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(120 * 1000);
    expect(runOnce).toHaveBeenCalledTimes(2);
    await s.beforeApplicationShutdown();
    expect(stop).toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(HOUR_MS);
    expect(runOnce).toHaveBeenCalledTimes(2);
    expect(logged).toHaveBeenCalledWith('housekeeping failed: Error: database away');
    logged.mockRestore();
  });

  it('starts no second pass while one is running', async () => {
    let finish: () => void = () => undefined;
    runOnce.mockReturnValueOnce(new Promise<void>((resolve) => (finish = resolve)));
    const s = scheduler({ HOUSEKEEPING_INTERVAL_SECONDS: '60' });
    s.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(180 * 1000);
    expect(runOnce).toHaveBeenCalledTimes(1);
    finish();
    await jest.advanceTimersByTimeAsync(60 * 1000);
    expect(runOnce).toHaveBeenCalledTimes(2);
    await s.beforeApplicationShutdown();
  });
});
