/**
 * `npx ts-node --transpile-only bench/memory-probe.ts [--rounds N] [--seconds S] NAME=FLAGS ...`:
 * resident memory of the built service under several node flag sets, interleaved (A, B, A, B),
 * a fresh process per measurement. On PostgreSQL (small tables): idle RSS, then `me` and `devices`
 * under load (max RSS sampled, CPU ms per request from /proc); on the embedded default: idle RSS.
 * NAME=FLAGS is `name=--flag --flag`; `name@/path/to/checkout=FLAGS` measures another build;
 * `name@bench/bare-nest.ts=FLAGS` (a .ts or .js file) runs that script instead of dist/main.js: the
 * bench's yardstick under the same flags (a .ts file through ts-node, as the bench runs it).
 * `--passes N` loads the routes N times over in one process, as the bench's rounds do.
 * Not part of `npm run bench`: a focused check for memory settings (docs/benchmarks.md).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { withBenchEnv } from './bench-env';
import type { Endpoint, LoadInput, LoadOutput } from './load';
import { loadInput } from './load-input';
import { cpuSeconds, freePort, LoadWorker, rssMb, Server, startServer, stopServer } from './procs';
import { seed, seedEmbedded, Seeded, SMALL } from './seed';
import { serviceEnv } from './service-env';
import { loadAverages, numberOption, ProbeSet, probeSets } from './probe-args';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => numberOption(argv, name, fallback);
const ROUNDS = option('--rounds', 3);
const SECONDS = option('--seconds', 4);
const IDLE_MS = option('--idle-ms', 3000);
/** How many times the routes are loaded in turn per process (the bench's rounds: 3). */
const PASSES = option('--passes', 1);
const ONLY = argv.includes('--embedded-only')
  ? 'embedded'
  : argv.includes('--postgres-only')
    ? 'postgres'
    : undefined;
const CONFIGS = probeSets(argv);
const ROUTES = argv.indexOf('--routes');
/** The routes loaded in turn (`--routes me,devices,webhook,checkout`); the bench's ones by name. */
const LOADED = (ROUTES >= 0 ? argv.splice(ROUTES, 2)[1] : 'me,devices').split(',') as Endpoint[];
let nextSubscription = 0;
/** The embedded default under load too (CPU of the PGlite worker counts: one process). */
const EMBEDDED_LOADED = argv.includes('--embedded-load');

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load1 = () => loadavg()[0].toFixed(2);

function boot(c: ProbeSet, env: NodeJS.ProcessEnv, port: number): Promise<Server> {
  // `NAME=` (empty) takes a variable out, e.g. start:prod's MALLOC_TRIM_THRESHOLD_ for a baseline.
  const merged = Object.entries({ ...env, ...c.env }).filter(([, v]) => v !== '');
  const script = /\.[jt]s$/.test(c.root) ? [c.root] : [join(c.root, 'dist/main.js')];
  if (c.root.endsWith('.ts')) script.unshift('-r', 'ts-node/register/transpile-only');
  return startServer(c.name, [...c.flags, ...script], Object.fromEntries(merged), port);
}

/** One loaded window: max RSS sampled every 100 ms, CPU ms per request. */
async function loaded(server: Server, endpoint: Endpoint, seeded: Seeded, worker: LoadWorker) {
  const pid = server.child.pid!;
  const run = async (seconds: number) => {
    const input = loadInput(server.url, endpoint, seeded, {
      seconds,
      connections: 20,
      subscriptionStart: nextSubscription,
    });
    const out = await worker.run<LoadInput, LoadOutput>(input);
    // The webhook pays pending subscriptions: each window starts past the ones already paid.
    nextSubscription = (nextSubscription + out.subscriptionsUsed) % seeded.size.subscriptions;
    return out;
  };
  await run(1); // warm-up
  const cpu0 = cpuSeconds(pid);
  let max = 0;
  const sampler = setInterval(() => (max = Math.max(max, rssMb(pid))), 100);
  const out = await run(SECONDS);
  clearInterval(sampler);
  max = Math.max(max, rssMb(pid));
  const cpuMs = ((cpuSeconds(pid) - cpu0) * 1000) / Math.max(1, out.requests);
  return { max, cpuMs, rps: out.rps, bad: out.non2xx + out.errors };
}

async function postgres(worker: LoadWorker) {
  await withBenchEnv('bench_memory', async ({ url, fake }) => {
    const env = serviceEnv(await freePort(), url, fake.url);
    const port = Number(env.PORT);
    await stopServer(await boot(CONFIGS[0], env, port)); // migrates the fresh database
    const seeded = await seed(url, SMALL);
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? CONFIGS : [...CONFIGS].reverse();
      for (const c of order) {
        const server = await boot(c, env, port);
        try {
          await sleep(IDLE_MS);
          const idle = rssMb(server.child.pid!);
          const parts = [`idle ${idle.toFixed(0)}`];
          let max = idle;
          for (const e of Array.from({ length: PASSES }, () => LOADED).flat()) {
            const r = await loaded(server, e, seeded, worker);
            max = Math.max(max, r.max);
            parts.push(
              `${e} ${r.max.toFixed(0)} MB ${r.cpuMs.toFixed(3)} ms/req ${r.rps.toFixed(0)} req/s` +
                (r.bad ? ` (${r.bad} non-2xx)` : ''),
            );
          }
          console.log(
            `postgres r${round + 1} ${c.name.padEnd(10)} RSS max ${max.toFixed(0)} MB | ${parts.join(' | ')} | load ${load1()}`,
          );
        } finally {
          await stopServer(server);
        }
      }
    }
  });
}

async function embedded(worker: LoadWorker) {
  await withBenchEnv('bench_memory_embedded', async ({ fake }) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-memory-'));
    try {
      const env = serviceEnv(await freePort(), undefined, fake.url, join(dataDir, 'pglite'));
      const port = Number(env.PORT);
      await stopServer(await boot(CONFIGS[0], env, port)); // migrates
      const seeded = await seedEmbedded(join(dataDir, 'pglite'), SMALL);
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? CONFIGS : [...CONFIGS].reverse();
        for (const c of order) {
          const server = await boot(c, env, port);
          try {
            await sleep(IDLE_MS);
            const idle = rssMb(server.child.pid!);
            const parts = [
              `idle RSS ${idle.toFixed(0)} MB (boot ${(server.bootMs / 1000).toFixed(2)} s)`,
            ];
            for (const e of EMBEDDED_LOADED ? LOADED : []) {
              const r = await loaded(server, e, seeded, worker);
              parts.push(
                `${e} ${r.max.toFixed(0)} MB ${r.cpuMs.toFixed(3)} ms/req ${r.rps.toFixed(0)} req/s`,
              );
            }
            console.log(
              `embedded r${round + 1} ${c.name.padEnd(10)} ${parts.join(' | ')} | load ${load1()}`,
            );
          } finally {
            await stopServer(server);
          }
        }
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}

async function main() {
  if (CONFIGS.length === 0) throw new Error('name=flags ... expected');
  for (const c of CONFIGS) {
    console.log(`${c.name}: ${c.root} ${c.flags.join(' ')} ${JSON.stringify(c.env)}`);
  }
  console.log(`start: load average ${loadAverages()}`);
  const worker = new LoadWorker(join(__dirname, 'load.ts'));
  try {
    if (ONLY !== 'postgres') await embedded(worker);
    if (ONLY !== 'embedded') await postgres(worker);
  } finally {
    worker.stop();
  }
  console.log(`end: load average ${loadAverages()}`);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
