import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { embeddedRun, testDatabaseUrl } from './test-app';
import { TEST_DATA_KEY } from './test-keys';
import { freePort } from './ports';

const ROOT = resolve(__dirname, '..', '..');

/** The real server (src/main.ts under ts-node) in a child process, as an operator runs it. */
export interface ServerProcess {
  child: ChildProcess;
  url: string;
  /** Every line it wrote, stdout and stderr. */
  lines: string[];
  /** The embedded data directory of an embedded run (removed by `cleanup`). */
  dataDir?: string;
  /** Resolves with the exit code (or null when killed by a signal). */
  exited: Promise<number | null>;
  /** Resolves once a line matches. */
  waitForLine(pattern: RegExp, withinMs?: number): Promise<string>;
  cleanup(): Promise<void>;
}

/**
 * Runs the server with only `env` (no `.env`: the working directory is a temporary one) plus the
 * run's database: its own embedded data directory on an embedded run, the run's PostgreSQL
 * database otherwise. A variable given as undefined is left out (DATA_ENCRYPTION_KEY, say).
 * `boot: false` returns at once, for boots that are meant to fail.
 */
export async function spawnServer(
  env: Record<string, string | undefined>,
  { boot = true }: { boot?: boolean } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const cwd = mkdtempSync(join(tmpdir(), 'dc-server-'));
  const dataDir = embeddedRun() ? join(cwd, 'pglite') : undefined;
  const child = spawn(
    process.execPath,
    ['-r', require.resolve('ts-node/register/transpile-only'), join(ROOT, 'src', 'main.ts')],
    {
      cwd,
      env: withoutUnset({
        PATH: process.env.PATH,
        TS_NODE_PROJECT: join(ROOT, 'tsconfig.json'),
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'info',
        LOG_PRETTY: 'false',
        DEVICE_TOKEN_SECRET: 'test-device-token-secret-0123456789abcdef',
        DATA_ENCRYPTION_KEY: TEST_DATA_KEY,
        ...(dataDir ? { PGLITE_DATA_DIR: dataDir } : { DATABASE_URL: testDatabaseUrl() }),
        ...env,
      }),
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const lines: string[] = [];
  const listeners = new Set<() => void>();
  // The server writes its log in blocks of several lines (log-destination.ts): a read may end
  // inside a line, whose rest comes with the next.
  const collect = (stream: NodeJS.ReadableStream) => {
    let partial = '';
    const add = (parts: string[]) => {
      lines.push(...parts.filter(Boolean));
      for (const listener of listeners) listener();
    };
    stream.on('data', (chunk: Buffer) => {
      const parts = (partial + chunk.toString()).split('\n');
      partial = parts.pop() ?? '';
      add(parts);
    });
    stream.on('end', () => add([partial]));
  };
  collect(child.stdout);
  collect(child.stderr);
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  // After 'close' its output is all in: a line not seen by then never comes.
  let closed = false;
  child.once('close', () => {
    closed = true;
    for (const listener of listeners) listener();
  });
  const waitForLine = (pattern: RegExp, withinMs = 90_000) =>
    new Promise<string>((resolveLine, reject) => {
      const check = () => {
        const found = lines.find((l) => pattern.test(l));
        if (!found && !closed) return;
        if (!found) {
          listeners.delete(check);
          clearTimeout(timer);
          return reject(
            new Error(`exited without a line matching ${pattern}:\n${lines.join('\n')}`),
          );
        }
        listeners.delete(check);
        clearTimeout(timer);
        resolveLine(found);
      };
      const timer = setTimeout(() => {
        listeners.delete(check);
        reject(new Error(`no line matching ${pattern} in:\n${lines.join('\n')}`));
      }, withinMs);
      listeners.add(check);
      check();
    });
  const server: ServerProcess = {
    child,
    url: `http://127.0.0.1:${port}`,
    lines,
    dataDir,
    exited,
    waitForLine,
    cleanup: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
      rmSync(cwd, { recursive: true, force: true });
    },
  };
  if (boot) await waitForLine(/Listening on http/);
  return server;
}

function withoutUnset(env: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined),
  );
}

/** The JSON log lines among `lines` (the rest ignored). */
export function jsonLines(lines: string[]): Record<string, unknown>[] {
  return lines.flatMap((l) => {
    try {
      return [JSON.parse(l) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}
