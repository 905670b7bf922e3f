import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Cores for the server and the load generator, when taskset can pin them. */
export const HAS_TASKSET = spawnSync('taskset', ['-V']).status === 0;
export const SERVER_CPU = '0';
export const LOAD_CPU = '1';
const CLOCK_TICKS_PER_SECOND = 100;

export function pinned(cpu: string, command: string, args: string[]): [string, string[]] {
  return HAS_TASKSET ? ['taskset', ['-c', cpu, command, ...args]] : [command, args];
}

/** A free port chosen by the kernel (never a fixed one: other suites run on this machine). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface Server {
  name: string;
  url: string;
  child: ChildProcess;
  /** Milliseconds from spawn to the first 200 on /health. */
  bootMs: number;
}

/** Starts a server process pinned to the server core and waits for its first healthy answer. */
export async function startServer(
  name: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  port: number,
  pin = true,
): Promise<Server> {
  const [command, argv] = pin
    ? pinned(SERVER_CPU, process.execPath, args)
    : [process.execPath, args];
  const started = performance.now();
  // exec replaces taskset with node, so the pid is the server's own (for CPU and memory readings).
  const child = spawn(command, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited: ${stderr}`);
    if (performance.now() - started > 60_000) throw new Error(`${name} did not boot: ${stderr}`);
    try {
      const res = await fetch(`${url}/health`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return { name, url, child, bootMs: performance.now() - started };
}

export async function stopServer(server: Server): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  const timer = setTimeout(() => server.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/** User plus system CPU seconds the process has used so far. */
export function cpuSeconds(pid: number): number {
  return statCpuSeconds(`/proc/${pid}/stat`);
}

function statCpuSeconds(file: string): number {
  const stat = readFileSync(file, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

/** Resident memory in MB. */
export function rssMb(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : 0;
}

/**
 * A load generator as one long-lived process on the load core (bench/load.ts, bench/fleet-load.ts,
 * each looping in `serveLines`): each window is a JSON line in and a JSON line out, so no window
 * waits for a generator to start.
 */
export class LoadWorker {
  private readonly child: ChildProcess;
  private buffered = '';
  private waiting: ((line: string) => void)[] = [];

  constructor(loadScript: string, ...args: string[]) {
    const [command, argv] = pinned(LOAD_CPU, process.execPath, [
      '-r',
      'ts-node/register/transpile-only',
      loadScript,
      ...args,
    ]);
    this.child = spawn(command, argv, { stdio: ['pipe', 'pipe', 'inherit'] });
    this.child.stdout!.on('data', (c: Buffer) => {
      this.buffered += c.toString();
      let nl: number;
      while ((nl = this.buffered.indexOf('\n')) >= 0) {
        const line = this.buffered.slice(0, nl);
        this.buffered = this.buffered.slice(nl + 1);
        this.waiting.shift()?.(line);
      }
    });
  }

  run<I, O>(input: I): Promise<O> {
    return new Promise((resolve, reject) => {
      const onExit = () => reject(new Error('load generator exited'));
      this.child.once('exit', onExit);
      this.waiting.push((line) => {
        this.child.off('exit', onExit);
        resolve(JSON.parse(line) as O);
      });
      this.child.stdin!.write(`${JSON.stringify(input)}\n`);
    });
  }

  stop(): void {
    this.child.stdin!.end();
    this.child.kill('SIGTERM');
  }
}

/** The worker's side of LoadWorker: one JSON line in, `handle`'s answer as one line out, in turn. */
export function serveLines<I, O>(handle: (input: I) => Promise<O>): void {
  let buffered = '';
  let queue = Promise.resolve();
  process.stdin.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const input = JSON.parse(buffered.slice(0, nl)) as I;
      buffered = buffered.slice(nl + 1);
      queue = queue
        .then(() => handle(input))
        .then((out) => void process.stdout.write(`${JSON.stringify(out)}\n`))
        .catch((err: unknown) => {
          console.error(err);
          process.exit(1);
        });
    }
  });
}
