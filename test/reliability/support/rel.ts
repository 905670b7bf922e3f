/** Limits high enough that a load or fuzz loop from 127.0.0.1 reaches the code behind them. */
export const HIGH_LIMITS = {
  RATE_LIMIT_CHECKOUT_PER_MINUTE: '1000000',
  RATE_LIMIT_LOGIN_PER_MINUTE: '1000000',
  RATE_LIMIT_DEVICE_AUTH_PER_MINUTE: '1000000',
};

/** Percentile of a list of numbers (nearest rank); 0 for an empty list. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Runs `task` at a steady rate until `until()` is true or `maxMs` has passed; bounded, and it
 * waits for every started task before it returns.
 */
export async function steadyLoad(
  perSecond: number,
  maxMs: number,
  task: (i: number) => Promise<void>,
  until: () => boolean = () => false,
): Promise<number> {
  const started: Promise<void>[] = [];
  const t0 = Date.now();
  const interval = 1000 / perSecond;
  for (let i = 0; Date.now() - t0 < maxMs && !until(); i++) {
    started.push(task(i));
    const next = t0 + (i + 1) * interval;
    await sleep(Math.max(0, next - Date.now()));
  }
  await Promise.all(started);
  return started.length;
}
