/**
 * `npm run bench [-- --quick] [-- --no-build]`: the service against its
 * yardstick, a bare Nest app on Express doing the same SQL and crypto (bench/bare-nest.ts); CPU per
 * request of each server process read from /proc, windows interleaved. Phases (bench/phases.ts,
 * bench/fleet.ts, bench/console.ts): PostgreSQL, the fleet against its twin, the embedded default,
 * the operators' console in Chromium. Writes
 * bench/results/<date>.md and .json, latest.md and bench/plans.md (quick runs: results/quick/).
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { consoleBench, consoleTargets } from './console';
import { fleetBench } from './fleet';
import type { Endpoint } from './load';
import * as o from './options';
import { embeddedPhase, ENDPOINTS, postgresPhase } from './phases';
import { HAS_TASKSET, LoadWorker } from './procs';
import { fleetTargets, Growth, Results, Row, Target, write } from './report';
import { growth } from './rounds';
import { SMALL } from './seed';
import { BENCH_RATE_LIMIT, POOL_SIZE, serviceArgs } from './service-env';
import { median } from './stats';

/** The CPU ratios to the bare Nest app and the growths (docs/benchmarks.md, "Targets"). */
function roundTargets(rows: Row[], g: Growth[]): Target[] {
  const cpu = (e: Endpoint, t: string) =>
    rows.find((r) => r.phase === 'small' && r.endpoint === e && r.target === t)?.cpuMsPerRequest ??
    NaN;
  const ratio = (e: Endpoint) => cpu(e, 'bare-nest') / cpu(e, 'service');
  const grow = (e: Endpoint) => g.find((x) => x.endpoint === e)?.ratio ?? NaN;
  const min = (id: string, e: Endpoint, limit: number): Target => ({
    id,
    measured: ratio(e),
    limit,
    kind: 'min',
  });
  const max = (id: string, e: Endpoint): Target => ({
    id,
    measured: grow(e),
    limit: 1.3,
    kind: 'max',
  });
  return [
    min('health_cpu_ratio', 'health', 0.55),
    min('me_cpu_ratio', 'me', 0.63),
    min('list_cpu_ratio', 'devices', 0.8),
    min('token_cpu_ratio', 'deviceToken', 0.43),
    min('webhook_cpu_ratio', 'webhook', 0.42),
    min('checkout_cpu_ratio', 'checkout', 0.48),
    min('detail_cpu_ratio', 'subscriptionDetail', 0.43),
    max('list_p99_growth', 'devices'),
    max('me_p99_growth', 'me'),
    max('token_p99_growth', 'deviceToken'),
    max('webhook_p99_growth', 'webhook'),
    max('heartbeat_p99_growth', 'heartbeat'),
  ];
}

/** The memory targets: under load on PostgreSQL, idle on the embedded default. */
const memoryTargets = (rss: number, idleRss: number): Target[] => [
  { id: 'rss_mb', measured: rss, limit: 175, kind: 'max' },
  { id: 'embedded_idle_rss_mb', measured: idleRss, limit: 250, kind: 'max' },
];

async function fullRun(started: number, load0: number[]): Promise<string> {
  const worker = new LoadWorker(join(__dirname, 'load.ts'));
  try {
    const postgres = await postgresPhase(worker);
    console.log(`fleet: ${o.FLEET.rps} requests/s on two instances of each side...`);
    const fleet = await fleetBench(o.FLEET);
    const embedded = await embeddedPhase(worker);
    console.log('console: first load and the Devices page in Chromium...');
    const consoleResult = await consoleBench();
    const rows = [...postgres.rows, ...embedded.rows];
    const g = growth(rows, ENDPOINTS);
    const results: Results = {
      date: new Date().toISOString(),
      quick: o.QUICK,
      machine: {
        cpus: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
        node: process.version,
        pinned: HAS_TASKSET
          ? 'servers on CPU 0 (all with the production node flags), the load generators and the PostgreSQL backends of the measured databases on CPU 1; boots unpinned'
          : 'no',
        window: `${o.ROUNDS} rounds x ${o.SECONDS} s per endpoint and server, interleaved, ${o.WARMUP_SECONDS} s warm-up, ${o.CONNECTIONS} connections`,
        database: `PostgreSQL, pool of ${POOL_SIZE}; embedded PGlite`,
        service: serviceArgs().join(' '),
        'rate limits': `raised to ${BENCH_RATE_LIMIT}/min via RATE_LIMIT_* (bench only)`,
        'duration s': Math.round((performance.now() - started) / 1000),
      },
      loadAverage: { start: load0, end: loadavg() },
      startedBusy: load0[0] >= 1,
      sizes: { small: SMALL, large: o.LARGE_SIZE },
      rows,
      growth: g,
      boot: { coldS: embedded.coldS, warmS: embedded.warm, warmMedianS: median(embedded.warm) },
      memory: { rssUnderLoadMb: postgres.rssMaxMb, embeddedIdleRssMb: embedded.idleRss },
      targets: [
        ...roundTargets(rows, g),
        ...fleetTargets(fleet, postgres.liveness),
        ...memoryTargets(postgres.rssMaxMb, embedded.idleRss),
        ...consoleTargets(consoleResult),
      ],
      fleet,
      console: consoleResult,
      liveness: postgres.liveness,
    };
    // Quick checks go beside the committed results, git-ignored; only a full run is committed.
    const md = write(join(__dirname, 'results', ...(o.QUICK ? ['quick'] : [])), results);
    if (postgres.plans) writeFileSync(join(__dirname, 'plans.md'), postgres.plans);
    return md.split('\n## Per route')[0];
  } finally {
    worker.stop();
  }
}

async function main(): Promise<void> {
  process.chdir(join(__dirname, '..'));
  const started = performance.now();
  const load0 = loadavg();
  const busy =
    load0[0] >= 1 ? ' (1 or more: not a quiet machine; read the ratios, not the milliseconds)' : '';
  console.log(`1-minute load average at the start: ${load0[0].toFixed(2)}${busy}`);
  if (o.BUILD) {
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  console.log(`quick: ${o.QUICK}; servers pinned to CPU 0, load to CPU 1: ${HAS_TASKSET}`);
  const summary = await fullRun(started, load0);
  console.log(`\n${summary}`);
  console.log(`run took ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
