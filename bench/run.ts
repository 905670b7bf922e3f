/**
 * `npm run bench`: the service against its bare twin (and /health against a bare Nest app), side by
 * side in one run, on a fresh PostgreSQL database; then boot time on a warm embedded data directory.
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
import { markdown, Results, Row, Sample, summarize, Target, write } from './report';
import { seed, Seeded } from './seed';
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
/** The service runs as `npm run start:prod` runs it: the same node flags, then dist/main.js. */
const SERVICE = [...productionNodeArgs(), 'dist/main.js'];
/** Warm boots measured (after one cold boot); the target is on their median. */
const WARM_BOOTS = Number(process.env.BENCH_BOOTS ?? 5);

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

function targets(rows: Row[], rssMaxMb: number, boot: { warm: number[] }): Target[] {
  const nan = { rps: NaN, p99: NaN };
  const get = (e: Endpoint, t: string) =>
    rows.find((r) => r.endpoint === e && r.target === t) ?? nan;
  const ratio = (e: Endpoint, ref = 'twin') => get(e, 'service').rps / get(e, ref).rps;
  return [
    {
      name: 'device list req/s, service/twin',
      measured: ratio('devices'),
      limit: 0.6,
      kind: 'min',
      note: '',
    },
    {
      name: 'device token req/s, service/twin',
      measured: ratio('deviceToken'),
      limit: 0.8,
      kind: 'min',
      note: '',
    },
    {
      name: 'webhook req/s, service/twin',
      measured: ratio('webhook'),
      limit: 0.7,
      kind: 'min',
      note: '',
    },
    {
      name: '/health req/s, service/bare Nest',
      measured: ratio('health', 'bare-nest'),
      limit: 0.85,
      kind: 'min',
      note: '',
    },
    {
      name: 'device list p99, service/twin',
      measured: get('devices', 'service').p99 / get('devices', 'twin').p99,
      limit: 3,
      kind: 'max',
      note: '',
    },
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
    try {
      const env = serviceEnv(await freePort(), url, fake.url);
      console.log(`database ${dbName}; service pinned to CPU 0, load to CPU 1: ${HAS_TASKSET}`);
      const service = await startServer('service', SERVICE, env, Number(env.PORT));
      servers.push(service);
      const ctx: Context = { seeded: await seed(url), nextSubscription: 0, rssMaxMb: 0 };
      const twinPort = await freePort();
      servers.push(
        await startServer(
          'twin',
          [...TS_NODE, 'bench/twin.ts'],
          { ...env, PORT: String(twinPort) },
          twinPort,
        ),
      );
      const barePort = await freePort();
      servers.push(
        await startServer(
          'bare-nest',
          [...TS_NODE, 'bench/bare-nest.ts'],
          { ...env, PORT: String(barePort) },
          barePort,
        ),
      );
      const samples = new Map<string, Sample[]>();
      for (let round = 0; round < ROUNDS; round++) {
        for (const endpoint of ENDPOINTS) {
          const group = servers.filter((s) => endpoint === 'health' || s.name !== 'bare-nest');
          // Alternate who goes first, so a drift in machine load does not always favour one side.
          for (const server of round % 2 === 0 ? group : [...group].reverse()) {
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
            ? 'service/twin/bare on CPU 0, autocannon on CPU 1, PostgreSQL unpinned; boot runs unpinned'
            : 'no',
          'load average before (1/5/15 min)': load0.map((l) => l.toFixed(2)).join(' / '),
          'load average after (1/5/15 min)': load1.map((l) => l.toFixed(2)).join(' / '),
          window: `${ROUNDS} rounds x ${SECONDS} s per endpoint and target, ${WARMUP_SECONDS} s warm-up, ${CONNECTIONS} connections`,
          'database pool size': POOL_SIZE,
          'rate limits': `raised to ${BENCH_RATE_LIMIT}/min via RATE_LIMIT_* (bench only)`,
        },
        rows,
        bootMs,
        rssMaxMb: ctx.rssMaxMb,
        targets: targets(rows, ctx.rssMaxMb, bootMs),
      };
      const notes = join(__dirname, 'findings.md');
      // A results file holds a whole run; quick checks (a subset, no boot) only print.
      const complete = ENDPOINTS.length === ALL_ENDPOINTS.length && !process.env.BENCH_SKIP_BOOT;
      const findings = existsSync(notes) ? readFileSync(notes, 'utf8') : '';
      const md = complete
        ? write(join(__dirname, 'results'), results, findings)
        : markdown(results, findings);
      console.log(`\n${md}`);
    } finally {
      for (const s of servers) await stopServer(s);
    }
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
