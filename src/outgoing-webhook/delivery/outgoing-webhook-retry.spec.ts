import { nextAttemptAt } from './outgoing-webhook-retry';

describe('retry schedule', () => {
  const schedule = [5_000, 300_000];
  const now = new Date('2026-01-01T00:00:00Z');

  it('waits each step, within ±10 %', () => {
    expect(nextAttemptAt(schedule, 1, now, () => 0)!.getTime() - now.getTime()).toBe(4_500);
    expect(nextAttemptAt(schedule, 1, now, () => 1)!.getTime() - now.getTime()).toBe(5_500);
    expect(nextAttemptAt(schedule, 2, now, () => 0.5)!.getTime() - now.getTime()).toBe(300_000);
  });

  it('gives one attempt more than the schedule has steps', () => {
    expect(nextAttemptAt(schedule, 3, now)).toBeNull();
  });
});
