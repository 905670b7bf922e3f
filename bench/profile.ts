/**
 * `npm run bench:profile [-- route...] [-- --out <file>] [-- --no-build]`: builds, then runs the
 * service under `node --cpu-prof` on a fresh database with the small tables, loads each route in
 * turn (a warm-up, then a measured window), and writes where the CPU went in each measured window:
 * shares of the busy samples by layer (bench/profile-layers.ts), one column per route, and the
 * functions with the most self time. Every measured route by default. The table goes to
 * bench/results/profile-<date>.md (or --out) and stdout; the .cpuprofile to bench/results/profiles/.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { withBenchEnv } from './bench-env';
import type { Endpoint, LoadInput, LoadOutput } from './load';
import { loadInput } from './load-input';
import { LAYERS, Profile } from './profile-layers';
import { nowUs, Span, windowShares, WindowShares } from './profile-windows';
import { cpuSeconds, freePort, LoadWorker, startServer, stopServer } from './procs';
import { seed, SMALL } from './seed';
import { serviceArgs, serviceEnv } from './service-env';

const ROUTES: Endpoint[] = [
  'health',
  'me',
  'devices',
  'deviceToken',
  'webhook',
  'checkout',
  'subscriptionDetail',
];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const WARMUP_SECONDS = 2;

/** One route's measured window, in the profile's clock (monotonic microseconds). */
interface Window extends Span {
  endpoint: Endpoint;
  rps: number;
  cpuMsPerRequest: number;
}

interface RouteShares extends WindowShares {
  endpoint: Endpoint;
}

const shares = (profile: Profile, windows: Window[]): RouteShares[] =>
  windowShares(profile, windows).map((s, i) => ({ ...s, endpoint: windows[i].endpoint }));

const pct = (n: number, total: number) => (n ? `${((100 * n) / total).toFixed(1)} %` : '0');
const top = (m: Map<string, number>, n: number) =>
  [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);

function markdown(
  routes: RouteShares[],
  windows: Window[],
  file: string,
  date: string,
  loadAtStart: number,
): string {
  const [l1] = loadavg();
  const service = serviceArgs()
    .join(' ')
    .replace(`${join(__dirname, '..')}/`, '');
  const head = `| layer | ${routes.map((r) => r.endpoint).join(' | ')} |`;
  const lines = [
    `# Where the CPU goes, ${date}`,
    '',
    `\`npm run bench:profile\`: the built service (\`node ${service}\`) under \`node --cpu-prof\`, ` +
      `PostgreSQL with the small tables, ${SECONDS} s of 20 connections per route after a ` +
      `${WARMUP_SECONDS} s warm-up. Shares of the busy samples in each route's measured window ` +
      '(boot, warm-up and idle excluded), each sample counted for the layer of the frame on top of ' +
      `its stack (bench/profile-layers.ts). **1-minute load average: ${loadAtStart.toFixed(2)} at the ` +
      `start, ${l1.toFixed(2)} at the end.** On a loaded machine the time the thread spends ` +
      'preempted lands on what it was doing (system calls collect it: socket and log writes); ' +
      'compare shares taken at similar loads. The absolute numbers under the profiler do not compare.',
    '',
    head,
    `| --- | ${routes.map(() => '---:').join(' | ')} |`,
    ...LAYERS.map(
      (layer) =>
        `| ${layer} | ${routes.map((r) => pct(r.byLayer.get(layer) ?? 0, r.busy)).join(' | ')} |`,
    ),
    `| busy samples | ${routes.map((r) => r.busy).join(' | ')} |`,
    `| req/s under the profiler | ${windows.map((w) => w.rps.toFixed(0)).join(' | ')} |`,
    `| CPU ms/req under the profiler | ${windows.map((w) => w.cpuMsPerRequest.toFixed(3)).join(' | ')} |`,
    '',
    `Profile: \`${file}\`.`,
  ];
  for (const r of routes) {
    lines.push(
      '',
      `## ${r.endpoint}: most self time`,
      '',
      '| share | function |',
      '| ---: | --- |',
    );
    for (const [k, v] of top(r.byFunction, 15)) lines.push(`| ${pct(v, r.busy)} | \`${k}\` |`);
    const unlisted = top(r.unlisted, 8).map(([k, v]) => `${k} ${pct(v, r.busy)}`);
    if (unlisted.length) lines.push('', `In "other": ${unlisted.join(', ')}.`);
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const outAt = argv.indexOf('--out');
  const out = outAt >= 0 ? resolve(argv[outAt + 1]) : undefined;
  const asked = argv.filter((a, i) => !a.startsWith('-') && !(outAt >= 0 && i === outAt + 1));
  const endpoints = (asked.length ? asked : ROUTES) as Endpoint[];
  process.chdir(join(__dirname, '..'));
  const [loadAtStart] = loadavg();
  if (!argv.includes('--no-build')) {
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  const dir = join(__dirname, 'results', 'profiles');
  mkdirSync(dir, { recursive: true });
  const worker = new LoadWorker(join(__dirname, 'load.ts'));
  try {
    await withBenchEnv('bench_prof', async ({ url, fake }) => {
      const port = await freePort();
      const env = serviceEnv(port, url, fake.url);
      const service = serviceArgs();
      const flags = ['--cpu-prof', `--cpu-prof-dir=${dir}`, '-r', './bench/exit-on-term.js'];
      const args = [...service.slice(0, -1), ...flags, service[service.length - 1]];
      const before = new Set(readdirSync(dir));
      const server = await startServer('service', args, env, port);
      const seeded = await seed(url, SMALL);
      const windows: Window[] = [];
      let next = 0;
      const run = async (endpoint: Endpoint, seconds: number) => {
        const input = loadInput(server.url, endpoint, seeded, {
          seconds,
          connections: 20,
          subscriptionStart: next,
        });
        const o = await worker.run<LoadInput, LoadOutput>(input);
        next += o.subscriptionsUsed;
        return o;
      };
      for (const endpoint of endpoints) {
        fake.reset();
        await run(endpoint, WARMUP_SECONDS);
        const cpu0 = cpuSeconds(server.child.pid!);
        const fromUs = nowUs();
        const o = await run(endpoint, SECONDS);
        const toUs = nowUs();
        const cpuMsPerRequest = ((cpuSeconds(server.child.pid!) - cpu0) * 1000) / o.requests;
        windows.push({ endpoint, fromUs, toUs, rps: o.rps, cpuMsPerRequest });
        console.log(`${endpoint}: ${o.rps.toFixed(0)} req/s, non-2xx ${o.non2xx + o.errors}`);
      }
      await stopServer(server);
      const file = readdirSync(dir).find((f) => !before.has(f) && f.endsWith('.cpuprofile'));
      if (!file) throw new Error('no profile written');
      const path = join(dir, file);
      const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
      const routes = shares(profile, windows);
      if (routes.some((r) => r.busy === 0)) {
        throw new Error('a window has no samples: the profile clock is not the monotonic one');
      }
      const date = new Date().toISOString();
      const md = markdown(routes, windows, `bench/results/profiles/${file}`, date, loadAtStart);
      const target =
        out ?? join(__dirname, 'results', `profile-${date.replace(/[:]/g, '-').slice(0, 19)}.md`);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, md);
      console.log(`\n${md}\nwritten to ${target}`);
    });
  } finally {
    worker.stop();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
