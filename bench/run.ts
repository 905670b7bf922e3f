/**
 * `npm run bench [-- --quick] [-- --no-build]`: the service against its yardstick, a bare Nest app on
 * Express doing the same SQL and crypto (bench/bare-nest.ts); rounds interleaved, CPU per request
 * of each server process read from /proc. Phases: PostgreSQL (a small and a large database, a
 * service on each, the bare app on the small one, all in the same interleaved rounds; then the query plans at the large size), and the
 * embedded default (boot, idle memory, the routes).
 * Writes bench/results/<date>.md and .json, latest.md and bench/plans.md (quick runs: results/quick/).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { BenchEnv, benchAdminUrl, withBenchEnv } from './bench-env';
import { eventsBench } from './events';
import { fleetBench, FleetResult } from './fleet';
import { onlyPhases } from './only';
import {
  livenessBench,
  livenessPlanMarkdown,
  LivenessResult,
  livenessSql,
  withLivenessPlan,
} from './liveness';
import type { Endpoint } from './load';
import { BENCH_ENDPOINTS } from './load-input';
import { pinBackends } from './pg-affinity';
import { capturePlans, plansMarkdown } from './plans';
import { freePort, HAS_TASKSET, LoadWorker, rssMb, Server, startServer, stopServer } from './procs';
import { Growth, median, Results, Row, Target, write } from './report';
import { referenceScript } from './reference-build';
import { Bound, Db, growth, rounds, RoundsOptions } from './rounds';
import { LARGE, QUICK_LARGE, seed, seedEmbedded, SMALL, TableSize } from './seed';
import {
  BENCH_RATE_LIMIT,
  POOL_SIZE,
  productionNodeArgs,
  serviceArgs,
  serviceEnv,
} from './service-env';

const ROOT = join(__dirname, '..');
const QUICK = process.argv.includes('--quick');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (QUICK ? 2 : 3));
const SECONDS = Number(process.env.BENCH_SECONDS ?? (QUICK ? 1.5 : 5));
const WARMUP_SECONDS = QUICK ? 1 : 2;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const WARM_BOOTS = Number(process.env.BENCH_BOOTS ?? (QUICK ? 2 : 5));
const LARGE_SIZE = QUICK ? QUICK_LARGE : LARGE;
/**
 * The fleet's fixed rate (all instances together), its window, its registered keyed devices. 250/s:
 * about three quarters of what the two instances on their one core answered when saturated (about
 * 350/s on 2026-11-27), so the p99 is a loaded service's, not a queue's.
 */
const FLEET = {
  rps: Number(process.env.BENCH_FLEET_RPS ?? 250),
  seconds: Number(process.env.BENCH_FLEET_SECONDS ?? (QUICK ? 5 : 20)),
  warmupSeconds: Number(process.env.BENCH_FLEET_WARMUP ?? (QUICK ? 3 : 10)),
  devices: QUICK ? 2_000 : 10_000,
};
/** `--only fleet,liveness`: just those phases, printed and kept in results/quick/ (docs/benchmarks.md). */
const ONLY = ((i) => (i >= 0 ? (process.argv[i + 1] ?? '').split(',') : undefined))(
  process.argv.indexOf('--only'),
);
/** Every measured route; the deep page and the heartbeat only on the service. */
const ENDPOINTS: Endpoint[] = [...BENCH_ENDPOINTS];
/** The heartbeat too: no CPU ratio is read for it, only its growth (docs/benchmarks.md). */
const SERVICE_ONLY = new Set<Endpoint>(['devicesDeep', 'heartbeat']);

/** The options of every interleaved phase. */
const roundOptions = (worker: LoadWorker): RoundsOptions => ({
  endpoints: ENDPOINTS,
  serviceOnly: SERVICE_ONLY,
  rounds: ROUNDS,
  seconds: SECONDS,
  warmupSeconds: WARMUP_SECONDS,
  connections: CONNECTIONS,
  worker,
});

/** A fresh database of the given size, migrated by the service's first boot, then seeded. */
async function bootAndSeed(size: TableSize, env: BenchEnv, started: Server[]): Promise<Bound> {
  const senv = serviceEnv(await freePort(), env.url, env.fake.url);
  // The service's first boot migrates the fresh database; the rows go in afterwards.
  const server = await startServer('service', serviceArgs(), senv, Number(senv.PORT));
  started.push(server);
  const t0 = performance.now();
  const seeded = await seed(env.url, size);
  console.log(
    `${size.name} tables seeded into ${env.dbName} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return { server, db: { phase: size.name, seeded, fake: env.fake, nextSubscription: 0 } };
}

/**
 * PostgreSQL: a small and a large database, a service process on each, the bare Nest app on the
 * small one; every round takes the two services' windows next to each other, so the growth from
 * small to large is read under the same machine conditions. Then the query plans at the large size.
 */
async function postgresPhase(worker: LoadWorker) {
  return withBenchEnv('bench_small', (smallEnv) =>
    withBenchEnv('bench_large', async (largeEnv) => {
      const started: Server[] = [];
      try {
        const small = await bootAndSeed(SMALL, smallEnv, started);
        const large = await bootAndSeed(LARGE_SIZE, largeEnv, started);
        const port = await freePort();
        const env = serviceEnv(port, smallEnv.url, smallEnv.fake.url);
        // Under the service's own node flags (its heap settings), so the GC work compares alike.
        const args = [...productionNodeArgs(), referenceScript()];
        const bare = await startServer('bare-nest', args, env, port);
        started.push(bare);
        const bareNest: Bound = { server: bare, db: small.db };
        // Every server's queries on the load core, so none shares its core with its database.
        const pinner = await pinBackends(benchAdminUrl(), [smallEnv.dbName, largeEnv.dbName]);
        // The yardstick next to the small service, the small service next to the large one.
        const result = await rounds([bareNest, small, large], roundOptions(worker)).finally(() =>
          pinner.stop(),
        );
        for (const s of started.splice(0)) await stopServer(s);
        // Outgoing webhooks on the small database, once the measured servers have stopped.
        const queued = QUICK ? 1_000 : 10_000;
        const o = { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS, queued };
        const events = await eventsBench(
          smallEnv.url,
          smallEnv.fake.url,
          small.db.seeded,
          worker,
          o,
        );
        let plans = '';
        if (!QUICK) {
          console.log('query plans at the large size...');
          const { seeded, nextSubscription } = large.db;
          const routes = await capturePlans(
            largeEnv.url,
            largeEnv.fake.url,
            seeded,
            ENDPOINTS,
            nextSubscription,
          );
          plans = plansMarkdown(routes, seeded, new Date().toISOString());
        }
        // Last: it moves 1 % of the large database's devices past their deadline.
        console.log('one liveness pass at the large size...');
        const liveness = await livenessBench(largeEnv.url, largeEnv.fake.url);
        console.log(`  ${liveness.offline} offline in ${liveness.passMs} ms`);
        if (plans) {
          const section = livenessPlanMarkdown(
            liveness,
            new Date().toISOString(),
            livenessSql().sql,
          );
          plans = withLivenessPlan(plans, section);
        }
        return { ...result, plans, events, liveness };
      } finally {
        for (const s of started) await stopServer(s);
      }
    }),
  );
}

/**
 * The embedded default: a cold boot (migrations), the small tables written into the closed data
 * directory, warm boots (unpinned, as in production), idle memory, then the routes (full run).
 */
async function embeddedPhase(worker: LoadWorker) {
  return withBenchEnv('bench_embedded', async ({ fake }) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-embedded-'));
    try {
      const env = serviceEnv(await freePort(), undefined, fake.url, dataDir);
      const port = Number(env.PORT);
      const boot = async (pin: boolean) => startServer('service', serviceArgs(), env, port, pin);
      const cold = await boot(false);
      await stopServer(cold);
      const seeded = await seedEmbedded(dataDir, SMALL);
      const warm: number[] = [];
      for (let i = 0; i < WARM_BOOTS; i++) {
        const s = await boot(false);
        warm.push(s.bootMs / 1000);
        await stopServer(s);
      }
      const server = await boot(true);
      let rows: Row[] = [];
      let idleRss: number;
      try {
        // Idle: booted, a health probe answered, then nothing for a few seconds.
        await new Promise((r) => setTimeout(r, 3000));
        idleRss = rssMb(server.child.pid!);
        console.log(
          `embedded: cold boot ${(cold.bootMs / 1000).toFixed(2)} s, warm ${warm.map((w) => w.toFixed(2)).join(' ')} s, idle RSS ${idleRss.toFixed(0)} MB`,
        );
        if (!QUICK) {
          const db: Db = { phase: 'embedded', seeded, fake, nextSubscription: 0 };
          ({ rows } = await rounds([{ server, db }], roundOptions(worker)));
        }
      } finally {
        await stopServer(server);
      }
      return { coldS: cold.bootMs / 1000, warm, idleRss, rows };
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

/**
 * The targets (docs/benchmarks.md). The CPU ratios are 0.85 times the mean of three runs of the
 * build before issue 36 (docs/decisions/0002-bench-yardstick.md), the detail's 0.85 times its first
 * measurement; the rest as set by issue 27.
 */
function targets(
  rows: Row[],
  g: Growth[],
  rss: number,
  idleRss: number,
  bootS: number,
  fleet: FleetResult,
  liveness: LivenessResult,
): Target[] {
  const cpu = (e: Endpoint, t: string) =>
    rows.find((r) => r.phase === 'small' && r.endpoint === e && r.target === t)?.cpuMsPerRequest ??
    NaN;
  const cpuRatio = (e: Endpoint) => cpu(e, 'bare-nest') / cpu(e, 'service');
  const grow = (e: Endpoint) => g.find((x) => x.endpoint === e)?.ratio ?? NaN;
  return [
    { id: 'health_cpu_ratio', measured: cpuRatio('health'), limit: 0.55, kind: 'min' },
    { id: 'me_cpu_ratio', measured: cpuRatio('me'), limit: 0.63, kind: 'min' },
    { id: 'list_cpu_ratio', measured: cpuRatio('devices'), limit: 0.8, kind: 'min' },
    { id: 'token_cpu_ratio', measured: cpuRatio('deviceToken'), limit: 0.43, kind: 'min' },
    { id: 'webhook_cpu_ratio', measured: cpuRatio('webhook'), limit: 0.42, kind: 'min' },
    { id: 'checkout_cpu_ratio', measured: cpuRatio('checkout'), limit: 0.48, kind: 'min' },
    // New with sealed personal data: 0.85 times two --quick runs' 0.51 and 0.49 (docs/benchmarks.md).
    { id: 'detail_cpu_ratio', measured: cpuRatio('subscriptionDetail'), limit: 0.43, kind: 'min' },
    { id: 'list_p99_growth', measured: grow('devices'), limit: 1.3, kind: 'max' },
    { id: 'me_p99_growth', measured: grow('me'), limit: 1.3, kind: 'max' },
    { id: 'token_p99_growth', measured: grow('deviceToken'), limit: 1.3, kind: 'max' },
    { id: 'webhook_p99_growth', measured: grow('webhook'), limit: 1.3, kind: 'max' },
    { id: 'heartbeat_p99_growth', measured: grow('heartbeat'), limit: 1.3, kind: 'max' },
    // Issue 38: the fleet's mix on two instances; one pass at 1 M devices, 1 % crossing.
    { id: 'devices_per_core', measured: fleet.devicesPerCore, limit: 250_000, kind: 'min' },
    { id: 'liveness_pass_ms', measured: liveness.passMs, limit: 1_000, kind: 'max' },
    { id: 'rss_mb', measured: rss, limit: 175, kind: 'max' },
    { id: 'embedded_idle_rss_mb', measured: idleRss, limit: 250, kind: 'max' },
    { id: 'boot_warm_s', measured: bootS, limit: 1.5, kind: 'max' },
  ];
}

async function main(): Promise<void> {
  process.chdir(ROOT);
  const started = performance.now();
  const load0 = loadavg();
  if (load0[0] > 1)
    console.warn(`load average ${load0[0].toFixed(2)} > 1: the machine is not quiet`);
  if (!process.argv.includes('--no-build')) {
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  if (ONLY) return onlyPhases(ONLY, FLEET);
  const worker = new LoadWorker(join(__dirname, 'load.ts'));
  try {
    console.log(`quick: ${QUICK}; service pinned to CPU 0, load to CPU 1: ${HAS_TASKSET}`);
    const postgres = await postgresPhase(worker);
    console.log(`fleet: ${FLEET.rps} requests/s on two instances (PostgreSQL + Redis)...`);
    const fleet = await fleetBench(FLEET);
    const embedded = await embeddedPhase(worker);
    const rows = [...postgres.rows, ...embedded.rows];
    const g = growth(rows, ENDPOINTS);
    const rss = postgres.rssMaxMb;
    const bootS = median(embedded.warm);
    const results: Results = {
      date: new Date().toISOString(),
      quick: QUICK,
      machine: {
        cpus: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
        node: process.version,
        pinned: HAS_TASKSET
          ? 'servers on CPU 0 (all with the production node flags), the load generator and the PostgreSQL backends of the measured databases on CPU 1; boots unpinned'
          : 'no',
        window: `${ROUNDS} rounds x ${SECONDS} s per endpoint and server, interleaved, ${WARMUP_SECONDS} s warm-up, ${CONNECTIONS} connections`,
        growth:
          'a service on a small and one on a large PostgreSQL database, their windows next to each other in every round (small, large, then large, small); growth is the median of the per-round ratios',
        database: `PostgreSQL, pool of ${POOL_SIZE}; embedded PGlite`,
        service: serviceArgs().join(' '),
        'rate limits': `raised to ${BENCH_RATE_LIMIT}/min via RATE_LIMIT_* (bench only)`,
        'duration s': Math.round((performance.now() - started) / 1000),
      },
      loadAverage: { start: load0, end: loadavg() },
      startedBusy: load0[0] > 1,
      sizes: { small: SMALL, large: LARGE_SIZE },
      rows,
      growth: g,
      boot: { coldS: embedded.coldS, warmS: embedded.warm, warmMedianS: bootS },
      memory: { rssUnderLoadMb: rss, embeddedIdleRssMb: embedded.idleRss },
      targets: targets(rows, g, rss, embedded.idleRss, bootS, fleet, postgres.liveness),
      events: postgres.events,
      fleet,
      liveness: postgres.liveness,
    };
    // Quick checks go beside the committed results, git-ignored; only a full run is committed.
    const md = write(join(__dirname, 'results', ...(QUICK ? ['quick'] : [])), results);
    if (postgres.plans) writeFileSync(join(__dirname, 'plans.md'), postgres.plans);
    console.log(`\n${md.split('\n## Per route')[0]}`);
    console.log(
      `${QUICK ? 'quick ' : ''}run took ${((performance.now() - started) / 1000).toFixed(0)} s`,
    );
  } finally {
    worker.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
