/**
 * `npm run bench:profile -- [endpoint...]`: runs the built service under `node --cpu-prof` on a
 * fresh seeded database, loads the given endpoints, and prints where the CPU time went: self time
 * by function and by package. The .cpuprofile lands in bench/results/profiles/ (git-ignored).
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { withBenchEnv } from './bench-env';
import type { Endpoint } from './load';
import { loadInChild, loadInput } from './load-input';
import { freePort, startServer, stopServer } from './procs';
import { serviceArgs, serviceEnv } from './service-env';
import { seed, SMALL } from './seed';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/**
 * Inclusive time: each busy sample counted once for every distinct frame on its stack, so a
 * middleware or a service method shows what it costs with all it calls (self time alone spreads
 * a layer's cost over the library functions it calls).
 */
function inclusive(profile: Profile, byId: Map<number, ProfileNode>): Map<string, number> {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const total = new Map<string, number>();
  for (const id of profile.samples) {
    const leaf = byId.get(id)!.callFrame.functionName;
    if (leaf === '(idle)' || leaf === '(program)' || leaf === '(garbage collector)') continue;
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const { functionName, url, lineNumber } = byId.get(cur)!.callFrame;
      if (!url || url.startsWith('node:')) continue;
      seen.add(
        `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\//, '').replace(/.*\/dist\//, 'dist/')}:${lineNumber}`,
      );
    }
    for (const k of seen) total.set(k, (total.get(k) ?? 0) + 1);
  }
  return total;
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
}

function where(url: string): string {
  const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (m) return m[1];
  if (url.includes('/dist/')) return 'service (dist)';
  return url ? (url.startsWith('node:') ? url : 'other') : '(native/gc/idle)';
}

function report(file: string): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  for (const id of profile.samples) self.set(id, (self.get(id) ?? 0) + 1);
  const fn = new Map<string, number>();
  const pkg = new Map<string, number>();
  let total = 0;
  for (const [id, count] of self) {
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') continue;
    total += count;
    const name = `${functionName || '(anonymous)'} ${url.replace(/.*node_modules\//, '')}:${lineNumber}`;
    fn.set(name, (fn.get(name) ?? 0) + count);
    pkg.set(where(url), (pkg.get(where(url)) ?? 0) + count);
  }
  const top = (m: Map<string, number>, n: number) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([k, v]) => `${((100 * v) / total).toFixed(1).padStart(5)}%  ${k}`)
      .join('\n');
  console.log(
    `busy samples: ${total}\n\nby package:\n${top(pkg, 20)}\n\nby function:\n${top(fn, 40)}` +
      `\n\ninclusive (with all it calls; packages and the service):\n${top(inclusive(profile, byId), 60)}`,
  );
}

async function main(): Promise<void> {
  const endpoints = (process.argv.slice(2).filter((a) => !a.startsWith('-')) as Endpoint[]) ?? [];
  const dir = join(__dirname, 'results', 'profiles');
  mkdirSync(dir, { recursive: true });
  await withBenchEnv('bench_prof', async ({ url, fake }) => {
    const port = await freePort();
    const env = serviceEnv(port, url, fake.url);
    const service = serviceArgs();
    const args = [
      ...service.slice(0, -1),
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      '-r',
      './bench/exit-on-term.js',
      service[service.length - 1],
    ];
    const before = new Set(readdirSync(dir));
    const server = await startServer('service', args, env, port);
    const seeded = await seed(url, SMALL);
    let next = 0;
    for (const endpoint of endpoints.length ? endpoints : (['health'] as Endpoint[])) {
      const input = loadInput(server.url, endpoint, seeded, {
        seconds: Number(process.env.BENCH_SECONDS ?? 5),
        connections: 20,
        subscriptionStart: next,
      });
      const out = await loadInChild(input);
      next += out.subscriptionsUsed;
      fake.reset();
      console.log(`${endpoint}: ${out.rps.toFixed(0)} req/s under the profiler`);
    }
    await stopServer(server);
    const file = readdirSync(dir).find((f) => !before.has(f) && f.endsWith('.cpuprofile'));
    if (!file) throw new Error('no profile written');
    console.log(`profile: ${join(dir, file)}`);
    report(join(dir, file));
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
