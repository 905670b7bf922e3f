/**
 * `npx ts-node --transpile-only bench/rss-climb.ts [--reps N] [--rounds N] [--seconds S] [--stats]
 * NAME=FLAGS ...`: the resident memory of the built service over the bench's own sequence (every
 * route of `npm run bench`, round after round, 20 connections, 2 s warm-up in the first round) on
 * PostgreSQL's small tables, one process per set and repetition, the sets interleaved (A, B, B, A).
 * Prints per window the max RSS sampled every 200 ms and where it is: /proc/<pid>/smaps by kind of
 * mapping, the thread count, and with `--stats` V8's own view (bench/mem-stats.js: heap spaces,
 * V8's malloced memory, code). NAME=FLAGS as in bench/memory-probe.ts (`name@/other/checkout=...`,
 * `NAME=` takes one of start:prod's variables out); with no set, start:prod's command alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { withBenchEnv } from './bench-env';
import type { Endpoint } from './load';
import { BENCH_ENDPOINTS, runWindow } from './load-input';
import { freePort, LoadWorker, rssMb, Server, startServer, stopServer } from './procs';
import { referenceScript } from './reference-build';
import { seed, Seeded, SMALL } from './seed';
import { productionNodeArgs, serviceEnv } from './service-env';
import { smapsKinds } from './smaps';
import { loadAverages, numberOption, ProbeSet, probeSet, probeSets } from './probe-args';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number) => numberOption(argv, name, fallback);
const REPS = option('--reps', 1);
const ROUNDS = option('--rounds', 3);
const SECONDS = option('--seconds', 5);
const STATS = argv.includes('--stats');
/** At the end, glibc's malloc_trim(0) called through gdb: how much of the RSS was free malloc memory. */
const TRIM = argv.includes('--trim');
/** `--snapshot DIR` (with --stats): a heap snapshot after the final full GC, DIR/<set>-<rep>.heapsnapshot. */
const snapshotAt = argv.indexOf('--snapshot');
const SNAPSHOT_DIR = snapshotAt >= 0 ? argv.splice(snapshotAt, 2)[1] : undefined;
const ENDPOINTS: Endpoint[] = [...BENCH_ENDPOINTS];
const ROOT = join(__dirname, '..');

const sets = probeSets(argv);
const CONFIGS = sets.length > 0 ? sets : [probeSet('prod=')];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load1 = () => loadavg()[0].toFixed(2);

/** start:prod's command of the set's checkout, the set's flags and variables, its dist/main.js. */
async function boot(c: ProbeSet, url: string, fakeUrl: string, statsFile: string, rep: number) {
  const port = await freePort();
  const base = serviceEnv(port, url, fakeUrl, undefined, c.root === 'bare-nest' ? ROOT : c.root);
  const snapshot = SNAPSHOT_DIR ? join(SNAPSHOT_DIR, `${c.name}-${rep + 1}.heapsnapshot`) : '';
  // `NAME=` (empty) takes one of start:prod's variables out.
  const env = Object.entries({
    ...base,
    ...c.env,
    MEM_STATS_FILE: statsFile,
    MEM_STATS_SNAPSHOT: snapshot,
  }).filter(([, v]) => v !== '');
  const pre = STATS ? ['-r', join(__dirname, 'mem-stats.js')] : [];
  // `name@bare-nest=...`: the bench's yardstick, compiled as the bench runs it, under this checkout's flags.
  const bare = c.root === 'bare-nest';
  const script = bare ? referenceScript('bare-nest') : join(c.root, 'dist/main.js');
  const args = [...productionNodeArgs(bare ? ROOT : c.root), ...c.flags, ...pre, script];
  return startServer(c.name, args, Object.fromEntries(env), port);
}

function lastStats(file: string): string {
  if (!STATS) return '';
  try {
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    const s = JSON.parse(lines[lines.length - 1]) as {
      spaces: Record<string, { physical: number; used: number }>;
      physical: number;
      malloced: number;
      peakMalloced: number;
      external: number;
      arrayBuffers: number;
      code: number;
    };
    const sp = (n: string) => `${s.spaces[n]?.physical ?? 0}/${s.spaces[n]?.used ?? 0}`;
    return (
      ` | v8 ${s.physical} (old ${sp('old')} code ${sp('code')} new ${sp('new')} lo ${sp('large_object')}` +
      ` trusted ${sp('trusted')}) malloced ${s.malloced}/${s.peakMalloced} ext ${s.external} ab ${s.arrayBuffers}`
    );
  } catch {
    return '';
  }
}

interface Bench {
  url: string;
  fakeUrl: string;
  seeded: Seeded;
  worker: LoadWorker;
  next: { subscription: number };
}

/** One process through the bench's rounds; its max RSS, MB. */
async function run(c: ProbeSet, rep: number, b: Bench) {
  const dir = mkdtempSync(join(tmpdir(), 'rss-climb-'));
  const statsFile = join(dir, 'stats.jsonl');
  const server: Server = await boot(c, b.url, b.fakeUrl, statsFile, rep);
  const pid = server.child.pid!;
  let max = 0;
  try {
    await sleep(3000);
    console.log(
      `${c.name} rep ${rep + 1} idle ${rssMb(pid).toFixed(0)} MB | ${smapsKinds(pid)}${lastStats(statsFile)}`,
    );
    for (let round = 0; round < ROUNDS; round++) {
      for (const e of ENDPOINTS) {
        if (c.root === 'bare-nest' && e === 'devicesDeep') continue; // no cursor there
        if (round === 0)
          await runWindow(b.worker, server.url, e, b.seeded, b.next, {
            seconds: 2,
            connections: 20,
          });
        let w = 0;
        const sampler = setInterval(() => (w = Math.max(w, rssMb(pid))), 200);
        const out = await runWindow(b.worker, server.url, e, b.seeded, b.next, {
          seconds: SECONDS,
          connections: 20,
        });
        clearInterval(sampler);
        w = Math.max(w, rssMb(pid));
        max = Math.max(max, w);
        console.log(
          `  r${round + 1} ${e.padEnd(11)} max ${w.toFixed(0)} ${out.rps.toFixed(0)} req/s` +
            `${out.non2xx + out.errors ? ` (${out.non2xx + out.errors} bad)` : ''} | ${smapsKinds(pid)}${lastStats(statsFile)}`,
        );
      }
    }
    if (STATS) {
      // The full collection and the module list of bench/mem-stats.js (needs --expose-gc in the set).
      server.child.kill('SIGWINCH');
      const gcLines = () =>
        readFileSync(statsFile, 'utf8')
          .trim()
          .split('\n')
          .filter((l) => l.includes('"gc":true'));
      // A heap snapshot takes seconds to write; the gc line follows it.
      for (let waited = 0; gcLines().length === 0 && waited < 60_000; waited += 500)
        await sleep(500);
      const gcLine = gcLines();
      console.log(`  after gc: ${smapsKinds(pid)} | ${gcLine.pop() ?? '(none)'}`);
    }
    if (TRIM) {
      const before = rssMb(pid);
      spawnSync('gdb', ['-p', String(pid), '-batch', '-ex', 'call (int)malloc_trim(0)'], {
        stdio: 'ignore',
      });
      console.log(
        `  malloc_trim(0): ${before.toFixed(0)} -> ${rssMb(pid).toFixed(0)} MB | ${smapsKinds(pid)}`,
      );
    }
  } finally {
    await stopServer(server);
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`${c.name} rep ${rep + 1}: max RSS ${max.toFixed(1)} MB, load ${load1()}`);
  return max;
}

async function main() {
  for (const c of CONFIGS)
    console.log(`${c.name}: ${c.root} ${c.flags.join(' ')} ${JSON.stringify(c.env)}`);
  console.log(`start: load average ${loadAverages()}`);
  const worker = new LoadWorker(join(__dirname, 'load.ts'));
  const maxima = new Map<string, number[]>();
  try {
    await withBenchEnv('bench_rss', async ({ url, fake }) => {
      const env = serviceEnv(await freePort(), url, fake.url);
      const migrate = [join(ROOT, 'dist/main.js')];
      await stopServer(await startServer('migrate', migrate, env, Number(env.PORT)));
      const b = {
        url,
        fakeUrl: fake.url,
        seeded: await seed(url, SMALL),
        worker,
        next: { subscription: 0 },
      };
      for (let rep = 0; rep < REPS; rep++) {
        const order = rep % 2 === 0 ? CONFIGS : [...CONFIGS].reverse();
        for (const c of order) {
          const m = await run(c, rep, b);
          maxima.set(c.name, [...(maxima.get(c.name) ?? []), Math.round(m)]);
        }
      }
    });
  } finally {
    worker.stop();
  }
  for (const [name, list] of maxima) console.log(`${name}: max RSS ${list.join(', ')} MB`);
  console.log(`end: load average ${loadAverages()}`);
}

void main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
