/**
 * The run's options (docs/benchmarks.md, "Running it"): `--quick`, `--no-build` and the
 * BENCH_* variables that size the windows.
 */
import { LARGE, QUICK_LARGE } from './seed';

const argv = process.argv.slice(2);
export const QUICK = argv.includes('--quick');
export const BUILD = !argv.includes('--no-build');

const numberOr = (name: string, full: number, quick: number) =>
  Number(process.env[name] ?? (QUICK ? quick : full));
export const ROUNDS = numberOr('BENCH_ROUNDS', 3, 2);
export const SECONDS = numberOr('BENCH_SECONDS', 5, 1.5);
export const WARMUP_SECONDS = QUICK ? 1 : 2;
export const CONNECTIONS = numberOr('BENCH_CONNECTIONS', 20, 20);
export const WARM_BOOTS = numberOr('BENCH_BOOTS', 5, 2);
export const LARGE_SIZE = QUICK ? QUICK_LARGE : LARGE;

/**
 * The fleet: its fixed rate (a side's two instances together), windows, keyed devices. 250/s:
 * about three quarters of what the two service instances on their one core answer saturated, so
 * the p99 is a loaded service's, not a queue's.
 */
export const FLEET = {
  rps: Number(process.env.BENCH_FLEET_RPS ?? 250),
  seconds: numberOr('BENCH_FLEET_SECONDS', 20, 5),
  warmupSeconds: numberOr('BENCH_FLEET_WARMUP', 10, 3),
  rounds: ROUNDS,
  devices: QUICK ? 2_000 : 10_000,
};
