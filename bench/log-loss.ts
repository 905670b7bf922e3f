/**
 * `npm run bench:log-loss [-- --runs N]` (after `npm run build`): what a crash costs the logs.
 * The built service on a fresh PostgreSQL database, autocannon on a logged route (an anonymous
 * `GET /api/auth/me`, one 401 access line each), and SIGKILL in the middle of the load: every
 * answer the client got had its access line made before the answer left, so answers counted minus
 * access lines on stdout afterwards are the lines the buffer lost. The time span is from the last
 * line that came out to the kill. Then the quiet case: one request, SIGKILL 300 ms later, when the
 * flush timer (src/common/logging/log-destination.ts) has written it.
 * BENCH_SERVICE_ROOT=<another built checkout> measures that build instead (pino's own default
 * destination, before log-destination.ts, was asynchronous too: one write(2) per line when idle,
 * whatever gathered during a write under load).
 */
import { ChildProcess, spawn } from 'node:child_process';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { withBenchEnv } from './bench-env';
import { freePort, pinned, SERVER_CPU } from './procs';
import { serviceArgs, serviceEnv } from './service-env';

const RUNS = Number(process.argv[process.argv.indexOf('--runs') + 1]) || 5;
const CONNECTIONS = 20;
/** Load before the kill: long enough to be past warm-up, and the buffer in steady use. */
const LOAD_MS = 3000;
const ROUTE = '/api/auth/me';

interface Service {
  child: ChildProcess;
  url: string;
  /** Access lines of ROUTE seen on stdout, and the newest one's time. */
  lines: () => { count: number; lastTime: number };
  closed: Promise<void>;
}

async function start(databaseUrl: string, fakeUrl: string): Promise<Service> {
  const port = await freePort();
  const [command, args] = pinned(SERVER_CPU, process.execPath, serviceArgs());
  const child = spawn(command, args, {
    env: serviceEnv(port, databaseUrl, fakeUrl),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let partial = '';
  let count = 0;
  let lastTime = 0;
  child.stdout.on('data', (chunk: Buffer) => {
    const text = partial + chunk.toString();
    const lines = text.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      if (!line.includes('"responseTime"') || !line.includes(`"url":"${ROUTE}"`)) continue;
      count++;
      lastTime = Math.max(lastTime, (JSON.parse(line) as { time: number }).time);
    }
  });
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (const started = Date.now(); ; await new Promise((r) => setTimeout(r, 50))) {
    if (child.exitCode !== null) throw new Error('the service exited during boot');
    if (Date.now() - started > 60_000) throw new Error('the service did not boot in 60 s');
    const ok = await fetch(`${url}/health`).then(
      (r) => r.status === 200,
      () => false,
    );
    if (ok) break;
  }
  return { child, url, lines: () => ({ count, lastTime }), closed };
}

interface Outcome {
  answered: number;
  lines: number;
  lost: number;
  spanMs: number;
  rps: number;
}

async function killedUnderLoad(databaseUrl: string, fakeUrl: string): Promise<Outcome> {
  const service = await start(databaseUrl, fakeUrl);
  let answered = 0;
  let killed = false;
  let killedAt = 0;
  // With a callback autocannon returns its running instance (events, stop) rather than a promise.
  const load = autocannon(
    {
      url: service.url,
      connections: CONNECTIONS,
      duration: LOAD_MS / 1000 + 5,
      requests: [{ method: 'GET', path: ROUTE }],
    },
    () => undefined,
  );
  load.on('response', () => {
    if (!killed) answered++;
  });
  await new Promise((r) => setTimeout(r, LOAD_MS));
  killed = true;
  killedAt = Date.now();
  service.child.kill('SIGKILL');
  load.stop();
  await service.closed;
  const { count, lastTime } = service.lines();
  return {
    answered,
    lines: count,
    lost: answered - count,
    spanMs: killedAt - lastTime,
    rps: Math.round(answered / (LOAD_MS / 1000)),
  };
}

async function killedWhenQuiet(databaseUrl: string, fakeUrl: string): Promise<Outcome> {
  const service = await start(databaseUrl, fakeUrl);
  await (await fetch(`${service.url}${ROUTE}`)).arrayBuffer();
  await new Promise((r) => setTimeout(r, 300));
  const killedAt = Date.now();
  service.child.kill('SIGKILL');
  await service.closed;
  const { count, lastTime } = service.lines();
  return { answered: 1, lines: count, lost: 1 - count, spanMs: killedAt - lastTime, rps: 0 };
}

async function main(): Promise<void> {
  const [load1] = loadavg();
  console.log(`# Log lines lost to SIGKILL (${new Date().toISOString()})`);
  console.log(`cpus ${cpus().length}; load average at start ${load1.toFixed(2)}`);
  console.log(
    `${CONNECTIONS} connections on GET ${ROUTE} (401, logged), SIGKILL after ${LOAD_MS} ms`,
  );
  console.log('');
  console.log('| run | answered | access lines | lost | last line before the kill, ms | req/s |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
  await withBenchEnv('bench_logloss', async ({ url, fake }) => {
    // The first boot migrates the fresh database: not measured.
    const first = await start(url, fake.url);
    first.child.kill('SIGTERM');
    await first.closed;
    const outcomes: Outcome[] = [];
    for (let run = 1; run <= RUNS; run++) {
      const o = await killedUnderLoad(url, fake.url);
      outcomes.push(o);
      console.log(`| ${run} | ${o.answered} | ${o.lines} | ${o.lost} | ${o.spanMs} | ${o.rps} |`);
    }
    const quiet = await killedWhenQuiet(url, fake.url);
    console.log(
      `| quiet: 1 request, SIGKILL 300 ms later | 1 | ${quiet.lines} | ${quiet.lost} | ${quiet.spanMs} | - |`,
    );
    const lost = outcomes.map((o) => o.lost);
    const spans = outcomes.map((o) => o.spanMs);
    console.log('');
    console.log(
      `lost under load: ${Math.min(...lost)}-${Math.max(...lost)} lines, ` +
        `the last ${Math.min(...spans)}-${Math.max(...spans)} ms before the kill`,
    );
  });
  console.log(`load average at end ${loadavg()[0].toFixed(2)}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
