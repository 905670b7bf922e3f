/**
 * `npm run bench [-- --quick] [-- --no-build]`: the service against its yardstick, a bare Nest app on
 * Express doing the same SQL and crypto (bench/bare-nest.ts), with the bare node:http twin as a
 * reference column; rounds interleaved, CPU per request of each server process read from /proc.
 * Phases: PostgreSQL with small tables (all servers), PostgreSQL with large tables (the service, for
 * the growth of p99, and the query plans), the embedded default (boot, idle memory, the routes).
 * Writes bench/results/<date>.md and .json, latest.md and bench/plans.md (quick runs: results/quick/).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { withBenchEnv } from './bench-env';
import type { FakeProcessor } from '../test/support/fake-processor';
import type { Endpoint, LoadInput, LoadOutput } from './load';
import { loadInput } from './load-input';
import { eventsBench } from './events';
import type { EventsResult } from './events-report';
import { capturePlans, plansMarkdown } from './plans';
import {
  cpuSeconds,
  freePort,
  HAS_TASKSET,
  LoadWorker,
  rssMb,
  Server,
  startServer,
  stopServer,
} from './procs';
import { Growth, median, Phase, Results, Row, Sample, summarize, Target, write } from './report';
import { LARGE, QUICK_LARGE, seed, Seeded, seedEmbedded, SMALL, TableSize } from './seed';
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
/** Every measured route; the deep page only on the service (the references have no cursor). */
const ENDPOINTS: Endpoint[] = [
  'health',
  'me',
  'devices',
  'devicesDeep',
  'deviceToken',
  'webhook',
  'checkout',
];
const SERVICE_ONLY = new Set<Endpoint>(['devicesDeep']);
const TS_NODE = ['-r', 'ts-node/register/transpile-only'];
/** The yardstick, then the reference; the quick check leaves the reference out. */
const REFERENCES: [string, string][] = QUICK
  ? [['bare-nest', 'bench/bare-nest.ts']]
  : [
      ['bare-nest', 'bench/bare-nest.ts'],
      ['twin', 'bench/twin.ts'],
    ];

interface Context {
  seeded: Seeded;
  nextSubscription: number;
  rssMaxMb: number;
  worker: LoadWorker;
  fake: FakeProcessor;
}

async function load(server: Server, endpoint: Endpoint, seconds: number, ctx: Context) {
  const input = loadInput(server.url, endpoint, ctx.seeded, {
    seconds,
    connections: CONNECTIONS,
    subscriptionStart: ctx.nextSubscription,
  });
  const out = await ctx.worker.run<LoadInput, LoadOutput>(input);
  ctx.nextSubscription += out.subscriptionsUsed;
  if (ctx.nextSubscription > ctx.seeded.size.subscriptions) {
    console.warn('  (the pending subscriptions are used up: later webhook events pay nothing)');
  }
  return out;
}

async function measure(server: Server, endpoint: Endpoint, round: number, ctx: Context) {
  ctx.fake.reset();
  if (round === 0) await load(server, endpoint, WARMUP_SECONDS, ctx);
  const pid = server.child.pid!;
  const cpu0 = cpuSeconds(pid);
  let rssMax = 0;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssMb(pid))), 200);
  const out = await load(server, endpoint, SECONDS, ctx);
  clearInterval(sampler);
  const cpu = cpuSeconds(pid) - cpu0;
  const sample: Sample = {
    round,
    requests: out.requests,
    seconds: out.seconds,
    rps: out.rps,
    p50: out.p50,
    p99: out.p99,
    non2xx: out.non2xx,
    errors: out.errors,
    cpuSeconds: cpu,
    cpuMsPerRequest: (cpu * 1000) / Math.max(1, out.requests),
    rssMaxMb: rssMax,
  };
  if (server.name === 'service') ctx.rssMaxMb = Math.max(ctx.rssMaxMb, rssMax);
  console.log(
    `  round ${round + 1} ${endpoint.padEnd(11)} ${server.name.padEnd(9)} ${sample.rps.toFixed(0).padStart(6)} req/s ` +
      `p50 ${sample.p50} p99 ${sample.p99} ms CPU ${sample.cpuMsPerRequest.toFixed(3)} ms/req ` +
      `non-2xx ${sample.non2xx + sample.errors} RSS ${rssMax.toFixed(0)} MB`,
  );
  return sample;
}

/** Rounds interleaved: each round runs every endpoint on every server, the order alternating. */
async function rounds(phase: Phase, servers: Server[], ctx: Context): Promise<Row[]> {
  const samples = new Map<string, Sample[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const endpoint of ENDPOINTS) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const server of order) {
        if (SERVICE_ONLY.has(endpoint) && server.name !== 'service') continue;
        const key = `${endpoint}|${server.name}`;
        samples.set(key, [
          ...(samples.get(key) ?? []),
          await measure(server, endpoint, round, ctx),
        ]);
      }
    }
  }
  return [...samples.entries()].map(([key, list]) => {
    const [endpoint, target] = key.split('|') as [Endpoint, string];
    return summarize(phase, endpoint, target, list);
  });
}

/** One PostgreSQL phase: a fresh database of the given size, the servers, the rounds. */
async function postgresPhase(
  size: TableSize,
  withReferences: boolean,
  worker: LoadWorker,
  afterRounds?: (url: string, fake: FakeProcessor, ctx: Context) => Promise<void>,
): Promise<{ rows: Row[]; rssMaxMb: number }> {
  return withBenchEnv(`bench_${size.name}`, async ({ dbName, url, fake }) => {
    const servers: Server[] = [];
    try {
      const env = serviceEnv(await freePort(), url, fake.url);
      // The service's first boot migrates the fresh database; the rows go in afterwards.
      servers.push(await startServer('service', serviceArgs(), env, Number(env.PORT)));
      const t0 = performance.now();
      const seeded = await seed(url, size);
      console.log(
        `${size.name} tables seeded into ${dbName} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      for (const [name, file] of withReferences ? REFERENCES : []) {
        const port = await freePort();
        // Under the service's own node flags (its heap settings), so the GC work compares alike.
        const args = [...productionNodeArgs(), ...TS_NODE, file];
        servers.push(await startServer(name, args, { ...env, PORT: String(port) }, port));
      }
      const ctx: Context = { seeded, nextSubscription: 0, rssMaxMb: 0, worker, fake };
      const rows = await rounds(size.name, servers, ctx);
      for (const s of servers.splice(0)) await stopServer(s);
      if (afterRounds) await afterRounds(url, fake, ctx);
      return { rows, rssMaxMb: ctx.rssMaxMb };
    } finally {
      for (const s of servers) await stopServer(s);
    }
  });
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
          const ctx: Context = { seeded, nextSubscription: 0, rssMaxMb: 0, worker, fake };
          rows = await rounds('embedded', [server], ctx);
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

function growth(rows: Row[]): Growth[] {
  const row = (phase: Phase, e: Endpoint) =>
    rows.find((r) => r.phase === phase && r.endpoint === e && r.target === 'service');
  return ENDPOINTS.map((endpoint) => {
    const small = row('small', endpoint);
    const large = row('large', endpoint);
    const smallP99 = small?.p99 ?? NaN;
    const largeP99 = large?.p99 ?? NaN;
    return {
      endpoint,
      smallP99,
      largeP99,
      ratio: largeP99 / smallP99,
      smallCpuMs: small?.cpuMsPerRequest ?? NaN,
      largeCpuMs: large?.cpuMsPerRequest ?? NaN,
    };
  });
}

/** The targets, exactly these ids and limits. */
function targets(rows: Row[], g: Growth[], rss: number, idleRss: number, bootS: number): Target[] {
  const cpu = (e: Endpoint, t: string) =>
    rows.find((r) => r.phase === 'small' && r.endpoint === e && r.target === t)?.cpuMsPerRequest ??
    NaN;
  const cpuRatio = (e: Endpoint) => cpu(e, 'bare-nest') / cpu(e, 'service');
  const grow = (e: Endpoint) => g.find((x) => x.endpoint === e)?.ratio ?? NaN;
  return [
    { id: 'health_cpu_ratio', measured: cpuRatio('health'), limit: 0.85, kind: 'min' },
    { id: 'me_cpu_ratio', measured: cpuRatio('me'), limit: 0.85, kind: 'min' },
    { id: 'list_cpu_ratio', measured: cpuRatio('devices'), limit: 0.85, kind: 'min' },
    { id: 'token_cpu_ratio', measured: cpuRatio('deviceToken'), limit: 0.75, kind: 'min' },
    { id: 'webhook_cpu_ratio', measured: cpuRatio('webhook'), limit: 0.75, kind: 'min' },
    { id: 'list_p99_growth', measured: grow('devices'), limit: 1.3, kind: 'max' },
    { id: 'me_p99_growth', measured: grow('me'), limit: 1.3, kind: 'max' },
    { id: 'token_p99_growth', measured: grow('deviceToken'), limit: 1.3, kind: 'max' },
    { id: 'webhook_p99_growth', measured: grow('webhook'), limit: 1.3, kind: 'max' },
    { id: 'rss_mb', measured: rss, limit: 150, kind: 'max' },
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
  const worker = new LoadWorker(join(__dirname, 'load.ts'));
  try {
    console.log(`quick: ${QUICK}; service pinned to CPU 0, load to CPU 1: ${HAS_TASKSET}`);
    let events: EventsResult | undefined;
    const small = await postgresPhase(SMALL, true, worker, async (url, fake, ctx) => {
      const o = { rounds: ROUNDS, seconds: SECONDS, connections: CONNECTIONS };
      events = await eventsBench(url, fake.url, ctx.seeded, worker, o);
    });
    let plans = '';
    const large = await postgresPhase(LARGE_SIZE, false, worker, async (url, fake, ctx) => {
      if (QUICK) return;
      console.log('query plans at the large size...');
      const routes = await capturePlans(url, fake.url, ctx.seeded, ENDPOINTS, ctx.nextSubscription);
      plans = plansMarkdown(routes, ctx.seeded, new Date().toISOString());
    });
    const embedded = await embeddedPhase(worker);
    const rows = [...small.rows, ...large.rows, ...embedded.rows];
    const g = growth(rows);
    const rss = Math.max(small.rssMaxMb, large.rssMaxMb);
    const bootS = median(embedded.warm);
    const results: Results = {
      date: new Date().toISOString(),
      quick: QUICK,
      machine: {
        cpus: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
        node: process.version,
        pinned: HAS_TASKSET
          ? 'servers on CPU 0 (all with the production node flags), the load generator on CPU 1, PostgreSQL unpinned; boots unpinned'
          : 'no',
        window: `${ROUNDS} rounds x ${SECONDS} s per endpoint and server, interleaved, ${WARMUP_SECONDS} s warm-up, ${CONNECTIONS} connections`,
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
      targets: targets(rows, g, rss, embedded.idleRss, bootS),
      events,
    };
    const notes = join(__dirname, 'findings.md');
    const findings = existsSync(notes) ? readFileSync(notes, 'utf8') : '';
    // Quick checks go beside the committed results, git-ignored; only a full run is committed.
    const md = write(join(__dirname, 'results', ...(QUICK ? ['quick'] : [])), results, findings);
    if (plans) writeFileSync(join(__dirname, 'plans.md'), plans);
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
