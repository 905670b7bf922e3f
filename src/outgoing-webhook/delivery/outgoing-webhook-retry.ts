/**
 * When the next attempt is due after `attempts` failed ones, or null when the schedule is spent:
 * step i is the wait before attempt i + 2, each ±10 % so receivers recovering from an outage are
 * not hit by every delivery at the same moment.
 */
export function nextAttemptAt(
  scheduleMs: number[],
  attempts: number,
  now: Date,
  random: () => number = Math.random,
): Date | null {
  const step = scheduleMs[attempts - 1];
  if (step === undefined) return null;
  const jitter = 1 + (random() * 2 - 1) * 0.1;
  return new Date(now.getTime() + Math.round(step * jitter));
}
