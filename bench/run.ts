/**
 * `npm run bench`: the service against a bare Nest app on Express doing the same SQL and crypto
 * (the yardstick), with a bare node:http twin of the same work as a reference column, side by side
 * in one run, on a fresh PostgreSQL database; then boot time on a warm embedded data directory.
 * Writes bench/results/<date>.md and .json and prints the table.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { withBenchEnv } from './bench-env';
import type { Endpoint, LoadInput, LoadOutput } from './load';
import {
  cpuSeconds,
  freePort,
  HAS_TASKSET,
  rssMb,
  runChild,
  Server,
  startServer,
  stopServer,
} from './procs';
import { markdown, Results, Sample, summarize, Target, write } from './report';
import { seed, Seeded, seedEmbedded } from './seed';
import { BENCH_RATE_LIMIT, POOL_SIZE, productionNodeArgs, serviceEnv } from './service-env';

const ROOT = join(__dirname, '..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const WARMUP_SECONDS = 3;
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 20);
const ALL_ENDPOINTS: Endpoint[] = ['health', 'devices', 'deviceToken', 'webhook', 'checkout'];
/** BENCH_ENDPOINTS=devices,webhook runs only those (for quick checks; a results file wants all). */
const ENDPOINTS = process.env.BENCH_ENDPOINTS
  ? ALL_ENDPOINTS.filter((e) => process.env.BENCH_ENDPOINTS!.split(',').includes(e))
  : ALL_ENDPOINTS;
const TS_NODE = ['-r', 'ts-node/register/transpile-only'];
/**
 * The service runs as `npm run start:prod` runs it: the same node flags, then dist/main.js.
 * BENCH_SERVICE_ROOT=<checkout> measures another build (an older commit) under the same harness.
 */
const SERVICE = [
  ...productionNodeArgs(),
  join(process.env.BENCH_SERVICE_ROOT ?? join(__dirname, '..'), 'dist/main.js'),
];
/**
 * BENCH_DATABASE=embedded: the service on its embedded default (PGlite, one connection) instead
 * of PostgreSQL; the references need a server of their own and are left out.
 */
const EMBEDDED = process.env.BENCH_DATABASE === 'embedded';
/** Warm boots measured (after one cold boot); the target is on their median. */
const WARM_BOOTS = Number(process.env.BENCH_BOOTS ?? 5);
/**
 * What the service is measured against, on every endpoint: the yardstick, a bare Nest app on
 * Express with the same handlers, and the bare node:http twin, for reference.
 */
const REFERENCES: [string, string][] = [
  ['bare-nest', 'bench/bare-nest.ts'],
  ['twin', 'bench/twin.ts'],
];

interface Context {
  seeded: Seeded;
  nextSubscription: number;
  rssMaxMb: number;
}

async function load(
  server: Server,
  endpoint: Endpoint,
  seconds: number,
  ctx: Context,
): Promise<LoadOutput> {
  const input: LoadInput = {
    url: server.url,
    endpoint,
    seconds,
    connections: CONNECTIONS,
    sessionToken: ctx.seeded.sessionToken,
    cookieName: 'service_session',
    subscriptionStart: ctx.nextSubscription,
  };
  const out = JSON.parse(
    await runChild([...TS_NODE, join(__dirname, 'load.ts'), JSON.stringify(input)]),
  ) as LoadOutput;
  ctx.nextSubscription += out.subscriptionsUsed;
  return out;
}

async function measure(
  server: Server,
  endpoint: Endpoint,
  round: number,
  ctx: Context,
): Promise<Sample> {
  await load(server, endpoint, round === 0 ? WARMUP_SECONDS : 1, ctx);
  const pid = server.child.pid!;
  const cpu0 = cpuSeconds(pid);
  let rssMax = 0;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssMb(pid))), 200);
  const out = await load(server, endpoint, SECONDS, ctx);
  clearInterval(sampler);
  const sample = { round, ...out, cpuSeconds: cpuSeconds(pid) - cpu0, rssMaxMb: rssMax };
  if (server.name === 'service') ctx.rssMaxMb = Math.max(ctx.rssMaxMb, rssMax);
  console.log(
    `  round ${round + 1} ${endpoint.padEnd(11)} ${server.name.padEnd(9)} ${sample.rps.toFixed(0).padStart(6)} req/s ` +
      `p50 ${sample.p50} ms p99 ${sample.p99} ms non-2xx ${sample.non2xx + sample.errors} RSS ${rssMax.toFixed(0)} MB`,
  );
  return sample;
}

async function bootTimes(fakeUrl: string): Promise<{ cold: number; warm: number[] }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-pglite-'));
  try {
    const boot = async () => {
      const port = await freePort();
      const server = await startServer(
        'service',
        SERVICE,
        serviceEnv(port, undefined, fakeUrl, dataDir),
        port,
        false, // no load generator runs now, so the process gets both cores as in production
      );
      await stopServer(server);
      return server.bootMs;
    };
    const cold = await boot();
    const warm: number[] = [];
    for (let i = 0; i < WARM_BOOTS; i++) warm.push(await boot());
    return { cold, warm };
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/**
 * Only memory and boot are targets. The service/reference ratios are reported, not judged: the
 * old ratio targets against the bare node:http twin were withdrawn with the move back to Express
 * (issue 14), and the comparison that matters is CPU per request against the bare Nest app.
 */
function targets(rssMaxMb: number, boot: { warm: number[] }): Target[] {
  return [
    {
      name: 'warm embedded boot, s (median)',
      measured: median(boot.warm) / 1000,
      limit: 2,
      kind: 'max',
      note: '',
    },
    { name: 'RSS under load, MB', measured: rssMaxMb, limit: 150, kind: 'max', note: '' },
  ];
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];

/** BENCH_ONLY_BOOT=1: the boot measurement alone, printed (no results file). */
async function onlyBoot(): Promise<void> {
  await withBenchEnv('bench_boot', async ({ fake }) => {
    const { cold, warm } = await bootTimes(fake.url);
    const ms = (x: number) => (x / 1000).toFixed(2);
    console.log(
      `node ${SERVICE.join(' ')}: cold ${ms(cold)} s, warm ${warm.map(ms).join(' ')} s, ` +
        `median ${ms(median(warm))} s (target <= 2 s); load average ${loadavg()[0].toFixed(2)}`,
    );
  });
}

async function main(): Promise<void> {
  process.chdir(ROOT);
  if (!process.argv.includes('--no-build')) {
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  if (process.env.BENCH_ONLY_BOOT) {
    await onlyBoot();
    return;
  }
  const load0 = loadavg();
  await withBenchEnv('bench', async ({ dbName, url, fake }) => {
    const servers: Server[] = [];
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-embedded-'));
    try {
      const env = serviceEnv(await freePort(), EMBEDDED ? undefined : url, fake.url, dataDir);
      console.log(
        `database ${EMBEDDED ? dataDir : dbName}; service pinned to CPU 0, load to CPU 1: ${HAS_TASKSET}`,
      );
      let seeded: Seeded;
      if (EMBEDDED) {
        // The first boot migrates; rows then go straight into the closed data directory.
        await stopServer(await startServer('service', SERVICE, env, Number(env.PORT)));
        seeded = await seedEmbedded(dataDir);
      }
      servers.push(await startServer('service', SERVICE, env, Number(env.PORT)));
      seeded ??= await seed(url);
      const ctx: Context = { seeded, nextSubscription: 0, rssMaxMb: 0 };
      for (const [name, file] of EMBEDDED ? [] : REFERENCES) {
        const port = await freePort();
        servers.push(
          await startServer(name, [...TS_NODE, file], { ...env, PORT: String(port) }, port),
        );
      }
      const samples = new Map<string, Sample[]>();
      for (let round = 0; round < ROUNDS; round++) {
        for (const endpoint of ENDPOINTS) {
          // Alternate who goes first, so a drift in machine load does not always favour one side.
          for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
            fake.reset();
            const key = `${endpoint}|${server.name}`;
            samples.set(key, [
              ...(samples.get(key) ?? []),
              await measure(server, endpoint, round, ctx),
            ]);
          }
        }
      }
      for (const s of servers.splice(0)) await stopServer(s);
      const rows = [...samples.entries()].map(([key, list]) => {
        const [endpoint, target] = key.split('|') as [Endpoint, string];
        return summarize(endpoint, target, list);
      });
      console.log('boot times on the embedded database...');
      const bootMs = process.env.BENCH_SKIP_BOOT
        ? { cold: NaN, warm: [NaN] }
        : await bootTimes(fake.url);
      const load1 = loadavg();
      const results: Results = {
        date: new Date().toISOString(),
        machine: {
          cpus: `${cpus().length} x ${cpus()[0]?.model ?? '?'}`,
          node: process.version,
          pinned: HAS_TASKSET
            ? 'service/bare-nest/twin on CPU 0, autocannon on CPU 1, PostgreSQL unpinned; boot runs unpinned'
            : 'no',
          'load average before (1/5/15 min)': load0.map((l) => l.toFixed(2)).join(' / '),
          'load average after (1/5/15 min)': load1.map((l) => l.toFixed(2)).join(' / '),
          window: `${ROUNDS} rounds x ${SECONDS} s per endpoint and target, ${WARMUP_SECONDS} s warm-up, ${CONNECTIONS} connections`,
          database: EMBEDDED
            ? 'embedded PGlite, one connection'
            : `PostgreSQL, pool of ${POOL_SIZE}`,
          service: SERVICE[SERVICE.length - 1],
          'rate limits': `raised to ${BENCH_RATE_LIMIT}/min via RATE_LIMIT_* (bench only)`,
        },
        rows,
        bootMs,
        rssMaxMb: ctx.rssMaxMb,
        targets: targets(ctx.rssMaxMb, bootMs),
      };
      const notes = join(__dirname, 'findings.md');
      // A results file holds a whole run; quick checks (a subset, no boot) only print.
      const complete = ENDPOINTS.length === ALL_ENDPOINTS.length && !process.env.BENCH_SKIP_BOOT;
      const findings = existsSync(notes) ? readFileSync(notes, 'utf8') : '';
      const md = complete
        ? write(join(__dirname, 'results'), results, findings, EMBEDDED ? '-embedded' : '')
        : markdown(results, findings);
      console.log(`\n${md}`);
    } finally {
      for (const s of servers) await stopServer(s);
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
