import { Logger } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { validateEnv } from '../config/env.validation';
import { AuditCheckpointScheduler } from './audit-checkpoint.scheduler';
import type { AuditEvents } from './audit-events.service';

describe('AuditCheckpointScheduler', () => {
  const HOUR_MS = 3600 * 1000;
  const newest = { seq: 42, hash: 'a'.repeat(64), occurred_at: '2026-01-01T00:00:00.000Z' };
  let head: jest.Mock;
  let logged: jest.SpyInstance;

  beforeEach(() => {
    jest.useFakeTimers();
    head = jest.fn().mockResolvedValue(newest);
    logged = jest.spyOn(Logger.prototype, 'log').mockImplementation(() => undefined);
  });
  afterEach(() => {
    logged.mockRestore();
    jest.useRealTimers();
  });

  const scheduler = (env: Record<string, string>) =>
    new AuditCheckpointScheduler(new AppConfig(validateEnv(env)), {
      head,
    } as unknown as AuditEvents);

  it('logs the head as one `audit checkpoint` line every hour by default', async () => {
    const s = scheduler({});
    s.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(HOUR_MS - 1);
    expect(logged).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1);
    expect(logged).toHaveBeenCalledWith({ msg: 'audit checkpoint', seq: 42, hash: newest.hash });
    await jest.advanceTimersByTimeAsync(HOUR_MS);
    expect(logged).toHaveBeenCalledTimes(2);
    await s.beforeApplicationShutdown();
  });

  it('logs nothing with AUDIT_CHECKPOINT_INTERVAL_SECONDS=0, nor for an empty trail', async () => {
    const off = scheduler({ AUDIT_CHECKPOINT_INTERVAL_SECONDS: '0' });
    off.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(48 * HOUR_MS);
    expect(head).not.toHaveBeenCalled();
    head.mockResolvedValue(null);
    const empty = scheduler({ AUDIT_CHECKPOINT_INTERVAL_SECONDS: '60' });
    empty.onApplicationBootstrap();
    await jest.advanceTimersByTimeAsync(60 * 1000);
    expect(head).toHaveBeenCalledTimes(1);
    expect(logged).not.toHaveBeenCalled();
    await empty.beforeApplicationShutdown();
  });
});
