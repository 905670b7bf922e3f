/**
 * `npm run bench:syscalls [-- route...] [-- --requests N] [-- --out <file>] [-- --no-build]`: the
 * system calls each server (the service, the bare Nest app) makes per request on each route, and
 * the bytes it writes and reads per request by file descriptor kind (client sockets, PostgreSQL,
 * the processor's fake, stdout). `strace -f -ff -yy` is attached to the running server after a
 * warm-up, for a fixed number of requests, then detached; counts do not depend on the machine's
 * load, except the wake-ups (epoll_wait, futex), which batching under load changes a little.
 * "idle" is each server's background, per second, with no requests.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { withBenchEnv } from './bench-env';
import type { Endpoint } from './load';
import { runWindow } from './load-input';
import { LoadWorker, Server, stopServer } from './procs';
import { migratedAndSeeded, NAMES, Name, servers } from './profile-diff-servers';
import { Census, censusMarkdown, Ports, tally } from './syscall-tally';

const ROUTES: Endpoint[] = ['health', 'me', 'devices', 'deviceToken', 'webhook', 'checkout'];
const CONNECTIONS = 10;
const IDLE_MS = 2000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** `work` with strace attached to every thread of `pid`; the trace's directory. */
async function traced(pid: number, work: () => Promise<void>): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'census-'));
  const args = ['-f', '-ff', '-qq', '-yy', '-s', '0', '-o', join(dir, 't'), '-p', String(pid)];
  const strace = spawn('strace', args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const threads = readdirSync(`/proc/${pid}/task`).length;
  for (let i = 0; readdirSync(dir).length < threads; i++) {
    if (i > 500) throw new Error('strace did not attach (is ptrace allowed?)');
    await sleep(10);
  }
  await work();
  await sleep(300); // what a response leaves behind (the log timer's flush, a session touch)
  const exited = new Promise((r) => strace.once('exit', r));
  strace.kill('SIGINT');
  await exited;
  return dir;
}

async function census(server: Server, ports: Ports, run: () => Promise<number>): Promise<Census> {
  const pid = server.child.pid!;
  let requests = 0;
  const dir = await traced(pid, async () => {
    requests = await run();
  });
  try {
    return tally(dir, pid, ports, requests);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
  const values = new Set([option('--out'), option('--requests')]);
  const asked = argv.filter((a) => !a.startsWith('-') && !values.has(a)) as Endpoint[];
  const endpoints = asked.length ? asked : ROUTES;
  const requests = Number(option('--requests') ?? 1000);
  process.chdir(join(__dirname, '..'));
  if (spawnSync('strace', ['-V']).status !== 0) throw new Error('strace is not installed');
  if (!argv.includes('--no-build') && spawnSync('npm', ['run', 'build']).status !== 0) {
    throw new Error('build failed');
  }
  const loadAtStart = loadavg();
  const worker = new LoadWorker(join(__dirname, 'load.ts'));
  const results = new Map<string, Census>();
  try {
    await withBenchEnv('bench_census', async ({ url, fake }) => {
      const env = servers(url, fake.url);
      const seeded = await migratedAndSeeded(env, url);
      const next = { subscription: 0 };
      const db = Number(new URL(url).port || 5432);
      const processor = Number(new URL(fake.url).port);
      for (const name of NAMES as readonly Name[]) {
        const server = await env.start(name);
        const ports: Ports = { client: Number(new URL(server.url).port), db, processor };
        try {
          results.set(
            `${name} idle`,
            await census(server, ports, () => sleep(IDLE_MS).then(() => IDLE_MS / 1000)),
          );
          for (const endpoint of endpoints) {
            const load = async (amount: number) => {
              fake.reset();
              const o = { seconds: 30, connections: CONNECTIONS, amount };
              const out = await runWindow(worker, server.url, endpoint, seeded, next, o);
              if (out.non2xx + out.errors > 0) throw new Error(`${endpoint} on ${name} failed`);
              return out.requests;
            };
            await load(requests); // warm-up: lazy set-up, the pool's connections, V8's tiers
            results.set(`${name} ${endpoint}`, await census(server, ports, () => load(requests)));
            console.log(`  ${endpoint} on ${name}`);
          }
        } finally {
          await stopServer(server);
        }
      }
    });
  } finally {
    worker.stop();
  }
  const md = censusMarkdown(['idle', ...endpoints], results, {
    command: `npm run bench:syscalls -- ${argv.join(' ')}`.trim(),
    loads: [loadAtStart, loadavg()],
    requests,
    connections: CONNECTIONS,
  });
  console.log(md);
  const out = option('--out');
  if (out) writeFileSync(resolve(out), md);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
