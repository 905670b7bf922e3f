/**
 * `npm run bench:profile-diff [-- route...] [-- --out <file>] [-- --no-build] [-- --no-counts]
 * [-- --alloc] [-- --survivors]`:
 * where the service's CPU per request goes beyond the bare Nest app's (bench/bare-nest.ts, the
 * bench's yardstick). Both run under `node --cpu-prof` with the same node flags, on one database
 * (one seed), under the same load; per route their windows are interleaved (service, bare, then
 * bare, service) so the machine's drift falls on both. Per layer (bench/profile-layers.ts): µs
 * per request on each, the gap and its parts (bench/profile-gap.ts). Then, unprofiled, promises per
 * request and a response's header and body bytes (bench/request-counts.ts); with --alloc, bytes
 * allocated per request by layer (bench/alloc-profile.ts); with --survivors, instead, the bytes per
 * request that outlived a young-generation collection (what drives promotion and mark-compacts).
 * Written as markdown
 * to bench/results/profile-diff-<date>.md (or --out); the .cpuprofile files to bench/results/profiles/.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { Alloc, allocated } from './alloc-profile';
import { benchAdminUrl, withBenchEnv } from './bench-env';
import type { Endpoint } from './load';
import { runWindow } from './load-input';
import { diffMarkdown, RouteDiff } from './profile-diff-report';
import { Measured, sum } from './profile-gap';
import type { Profile } from './profile-layers';
import { pinBackends } from './pg-affinity';
import { nowUs, Span, windowShares } from './profile-windows';
import { LoadWorker, Server, stopServer } from './procs';
import {
  cpu,
  Env,
  EXTRA_FLAGS,
  migratedAndSeeded,
  minus,
  Name,
  NAMES,
  servers,
} from './profile-diff-servers';
import { countRoute, Counts, responseBytes, RouteCounts } from './request-counts';
import type { Seeded } from './seed';

const SURVIVORS = process.argv.includes('--survivors');
// bench/heap-sample.js reads it in the servers (profile-diff-servers.ts passes it on).
if (SURVIVORS) process.env.HEAP_SAMPLE_SURVIVORS = 'on';
const ROUTES: Endpoint[] = ['health', 'me', 'devices', 'deviceToken', 'webhook', 'checkout'];
const SETTINGS = {
  rounds: Number(process.env.BENCH_ROUNDS ?? 2),
  seconds: Number(process.env.BENCH_SECONDS ?? 6),
  warmupSeconds: 2,
  connections: 20,
  countRequests: 4000,
  countConnections: 10,
};

/** One measured window of one server on one route: its span in the profile's clock, its CPU. */
interface Window extends Span {
  name: Name;
  endpoint: Endpoint;
  mainCpuS: number;
  threadsCpuS: Map<string, number>;
  profilerCpuS: number;
  requests: number;
  failed: number;
}

/** What every window uses: the load generator, the tables, the fake processor. */
interface Shared {
  worker: LoadWorker;
  seeded: Seeded;
  next: { subscription: number };
  fake: { reset(): void };
}

/** `endpoint` loaded on `server` for `seconds`, a fresh fake processor and subscriptions. */
async function load(s: Shared, server: Server, endpoint: Endpoint, seconds: number) {
  s.fake.reset();
  const o = { seconds, connections: SETTINGS.connections };
  return runWindow(s.worker, server.url, endpoint, s.seeded, s.next, o);
}

async function window(server: Server, name: Name, endpoint: Endpoint, s: Shared, warm: boolean) {
  const run = (seconds: number) => load(s, server, endpoint, seconds);
  if (warm) await run(SETTINGS.warmupSeconds);
  const pid = server.child.pid!;
  const [c0, fromUs] = [cpu(pid), nowUs()];
  const out = await run(SETTINGS.seconds);
  const [toUs, c1] = [nowUs(), cpu(pid)];
  const w: Window = {
    name,
    endpoint,
    fromUs,
    toUs,
    mainCpuS: c1.main - c0.main,
    threadsCpuS: minus(c1.threads, c0.threads),
    profilerCpuS: c1.profiler - c0.profiler,
    requests: out.requests,
    failed: out.non2xx + out.errors,
  };
  const ms = (s: number) => ((s * 1000) / Math.max(1, w.requests)).toFixed(3);
  console.log(
    `  ${endpoint.padEnd(11)} ${name.padEnd(9)} ${out.rps.toFixed(0).padStart(6)} req/s CPU ms/req: ` +
      `main ${ms(w.mainCpuS)} ${[...w.threadsCpuS]
        .filter(([, v]) => v > 0)
        .map(([k, v]) => `${k} ${ms(v)}`)
        .join(' ')} ` +
      `profiler ${ms(w.profilerCpuS)} failed ${w.failed}`,
  );
  if (w.requests === 0 || w.failed > w.requests / 100) {
    throw new Error(`${endpoint} on ${name}: ${w.failed} of ${w.requests} requests failed`);
  }
  return w;
}

/** The profiled pass: both servers up, windows interleaved, then stopped so they write profiles. */
async function profiled(endpoints: Endpoint[], s: Shared, env: Env, dir: string) {
  const servers = new Map<Name, Server>();
  const windows: Window[] = [];
  try {
    for (const name of NAMES) servers.set(name, await env.start(name, dir));
    for (let round = 0; round < SETTINGS.rounds; round++) {
      console.log(`round ${round + 1}`);
      for (const endpoint of endpoints) {
        const order = round % 2 === 0 ? NAMES : [...NAMES].reverse();
        for (const name of order) {
          windows.push(await window(servers.get(name)!, name, endpoint, s, round === 0));
        }
      }
    }
  } finally {
    for (const server of servers.values()) await stopServer(server);
  }
  const measured = new Map<string, Measured>();
  for (const name of NAMES) {
    const files = readdirSync(join(dir, name)).filter((f) => f.endsWith('.cpuprofile'));
    if (files.length !== 1) throw new Error(`${name}: ${files.length} profiles in ${dir}/${name}`);
    const profile = JSON.parse(readFileSync(join(dir, name, files[0]), 'utf8')) as Profile;
    const mine = windows.filter((w) => w.name === name);
    const shares = windowShares(profile, mine);
    shares.forEach((sh, i) => {
      const w = mine[i];
      if (sh.busy === 0) throw new Error(`${w.endpoint} on ${name}: a window with no samples`);
      const key = `${name} ${w.endpoint}`;
      const m: Measured = { ...sh, ...w };
      measured.set(key, sum([...(measured.has(key) ? [measured.get(key)!] : []), m]));
    });
  }
  return { measured, windows };
}

/**
 * The unprofiled pass, each server alone with bench/promise-count.js: first without its async hook
 * (garbage collections, heap), then with it (async resources); then one request per route on a
 * raw socket for the response's bytes.
 */
async function counted(endpoints: Endpoint[], s: Shared, env: Env, dir: string) {
  const counts = new Map<string, Counts>();
  const gcRuns = new Map<string, RouteCounts>();
  const o = { ...s, requests: SETTINGS.countRequests, connections: SETTINGS.countConnections };
  const only = (c: RouteCounts, gc: boolean) =>
    Object.entries(c.perRequest).filter(([k]) => k.startsWith('gc ') === gc);
  for (const name of NAMES) {
    for (const hook of [false, true]) {
      const file = join(dir, `${name}.${hook ? 'async' : 'gc'}-counts.json`);
      const server = await env.start(name, undefined, { file, hook });
      try {
        for (const endpoint of endpoints) {
          s.fake.reset();
          const c = await countRoute(server, endpoint, { ...o, file });
          const key = `${name} ${endpoint}`;
          console.log(`  counted ${endpoint} on ${name}${hook ? ' (async hook)' : ''}`);
          if (!hook) {
            gcRuns.set(key, c);
            continue;
          }
          const gc = gcRuns.get(key)!;
          const perRequest = Object.fromEntries([...only(gc, true), ...only(c, false)]);
          const sub = s.next.subscription++;
          const bytes = await responseBytes(server.url, endpoint, s.seeded, sub);
          counts.set(key, {
            ...bytes,
            requests: c.requests,
            heapUsedMb: gc.heapUsedMb,
            perRequest,
          });
        }
      } finally {
        await stopServer(server);
      }
    }
  }
  return counts;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const outAt = argv.indexOf('--out');
  const out = outAt >= 0 ? resolve(argv[outAt + 1]) : undefined;
  const asked = argv.filter((a, i) => !a.startsWith('-') && !(outAt >= 0 && i === outAt + 1));
  const unknown = asked.filter((a) => !ROUTES.includes(a as Endpoint));
  if (unknown.length)
    throw new Error(`unknown routes ${unknown.join(', ')}; known: ${ROUTES.join(', ')}`);
  const endpoints = (asked.length ? asked : ROUTES) as Endpoint[];
  process.chdir(join(__dirname, '..'));
  const loadAtStart = loadavg();
  if (!argv.includes('--no-build')) {
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  const date = new Date().toISOString();
  const stamp = date.replace(/[:]/g, '-').slice(0, 19);
  const dir = join(__dirname, 'results', 'profiles', `diff-${stamp}`);
  const worker = new LoadWorker(join(__dirname, 'load.ts'));
  try {
    await withBenchEnv('bench_diff', async ({ url, fake, dbName }) => {
      // As the bench and bench:ab: a backend on the server's core preempts the server in its
      // writes to PostgreSQL, and the profiler books the wait to writev (bench/findings.md).
      const pinner = await pinBackends(benchAdminUrl(), [dbName]);
      try {
        const env = servers(url, fake.url);
        const seeded = await migratedAndSeeded(env, url);
        const shared: Shared = { worker, seeded, next: { subscription: 0 }, fake };
        const { measured, windows } = await profiled(endpoints, shared, env, dir);
        const counts = argv.includes('--no-counts')
          ? new Map<string, Counts>()
          : await counted(endpoints, shared, env, dir);
        const allocs =
          argv.includes('--alloc') || SURVIVORS
            ? await allocated(endpoints, dir, {
                ...{
                  names: NAMES,
                  warmupSeconds: SETTINGS.warmupSeconds,
                  seconds: SETTINGS.seconds,
                },
                start: (name, heapDir) => env.start(name, undefined, undefined, heapDir),
                load: (server, endpoint, seconds) => load(shared, server, endpoint, seconds),
              })
            : new Map<string, Alloc>();
        const routes: RouteDiff[] = endpoints.map((endpoint) => ({
          endpoint,
          service: measured.get(`service ${endpoint}`)!,
          bare: measured.get(`bare-nest ${endpoint}`)!,
          rounds: windows.filter((w) => w.endpoint === endpoint),
          serviceCounts: counts.get(`service ${endpoint}`),
          bareCounts: counts.get(`bare-nest ${endpoint}`),
          serviceAlloc: allocs.get(`service ${endpoint}`),
          bareAlloc: allocs.get(`bare-nest ${endpoint}`),
        }));
        const command = `npm run bench:profile-diff -- ${argv.join(' ')}`.trim();
        const meta = {
          date,
          command,
          loadAtStart,
          loadAtEnd: loadavg(),
          dir,
          settings: SETTINGS,
          extraFlags: EXTRA_FLAGS,
        };
        const md = diffMarkdown(routes, meta);
        const target = out ?? join(__dirname, 'results', `profile-diff-${stamp}.md`);
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, md);
        console.log(`\n${md}\nwritten to ${target}`);
      } finally {
        await pinner.stop();
      }
    });
  } finally {
    worker.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
