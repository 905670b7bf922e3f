import { Logger } from '@nestjs/common';
import { AppConfig } from '../../config/app-config';
import { validateEnv } from '../../config/env.validation';
import { DeviceLivenessScheduler } from './device-liveness.scheduler';
import { DeviceLiveness } from './device-liveness.service';

describe('DeviceLivenessScheduler', () => {
  let runOnce: jest.Mock;
  let stop: jest.Mock;

  beforeEach(() => {
    jest.useFakeTimers();
    runOnce = jest.fn().mockResolvedValue({ offline: 0, batches: 1, ms: 1 });
    stop = jest.fn();
  });
  afterEach(() => jest.useRealTimers());

  const scheduler = (env: Record<string, string>) =>
    new DeviceLivenessScheduler(new AppConfig(validateEnv(env)), {
      runOnce,
      stop,
    } as unknown as DeviceLiveness);

  it('runs every DEVICE_LIVENESS_INTERVAL_SECONDS (default 30)', async () => {
    const s = scheduler({});
    s.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(29_999);
    expect(runOnce).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(runOnce).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(60_000);
    expect(runOnce).toHaveBeenCalledTimes(3);
    await s.beforeApplicationShutdown();
  });

  it('keeps its timer after a failed pass, and stops it (and the pass) at shutdown', async () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    runOnce.mockRejectedValueOnce(new Error('database away'));
    const s = scheduler({ DEVICE_LIVENESS_INTERVAL_SECONDS: '1' });
    s.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(2_000);
    expect(runOnce).toHaveBeenCalledTimes(2);
    await s.beforeApplicationShutdown();
    expect(stop).toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(10_000);
    expect(runOnce).toHaveBeenCalledTimes(2);
    expect(logged).toHaveBeenCalledWith('liveness pass failed: Error: database away');
    logged.mockRestore();
  });
});
