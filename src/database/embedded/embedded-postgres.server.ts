import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, extname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Logger } from '@nestjs/common';
import { ownerOnlyDir, socketPathFits } from './embedded-postgres.files';
import { DataDirLock } from './embedded-postgres.lock';
import { refuseUntrustedParent } from './embedded-postgres.trust';
// Types only: the worker module itself loads PGlite, which the main thread never needs.
import type {
  EmbeddedWorkerData,
  EmbeddedWorkerReply,
  EmbeddedWorkerRequest,
} from './embedded-postgres.worker';

const MEMORY = 'memory://';

/** The socket's directory inside the data directory (removed again at stop). */
const SOCKET_DIR = 'socket';

/** How long a stopping worker gets to close PGlite (which writes its files) before it is ended. */
const STOP_TIMEOUT_MS = 10_000;

/** Beside this file: compiled JavaScript in dist/, TypeScript under ts-node (`npm run cli`). */
const WORKER_FILE = join(__dirname, `embedded-postgres.worker${extname(__filename)}`);
/**
 * Nothing inherited from the main thread's flags (a profiler, preloads); ts-node for a .ts file,
 * resolved from here so a server started from another working directory finds it too.
 */
const WORKER_EXEC_ARGV =
  extname(__filename) === '.ts' ? ['-r', require.resolve('ts-node/register/transpile-only')] : [];

/**
 * The URL `pg` (and psql) reach a Unix socket in `dir` with: the `host` parameter names the
 * directory; `localhost` only makes it a URL that the configuration's validation and `new URL` take.
 */
function socketUrl(dir: string): string {
  return `postgres://postgres@localhost/postgres?host=${encodeURIComponent(dir)}`;
}

/**
 * PGlite (PostgreSQL compiled to WebAssembly) served on a Unix socket by our gated socket server
 * (embedded-postgres.socket.ts) in a worker thread (embedded-postgres.worker.ts), so the app reaches
 * it through the same `pg` driver it uses for a real server, and its startup and queries run beside
 * the main thread rather than on it. No TCP port: the socket lives in a directory of mode 0700
 * inside the data directory (0700 too), so only the service's own user can connect.
 */
export class EmbeddedPostgresServer {
  /** Told when the database fails after it started; the Nest provider logs it. */
  onFailure: (message: string) => void = (message) => new Logger('EmbeddedPostgres').error(message);
  private worker?: Worker;
  private exited?: Promise<unknown>;
  private lock?: DataDirLock;
  private starting?: Promise<string>;
  private socket?: string;

  constructor(readonly dataDir: string) {}

  /** The connection URL; the first call starts the worker, later ones share its answer. */
  start(): Promise<string> {
    this.starting ??= this.launch();
    return this.starting;
  }

  /** The directory holding the socket, once started. */
  get socketDir(): string | undefined {
    return this.socket;
  }

  private async launch(): Promise<string> {
    const inMemory = this.dataDir.startsWith(MEMORY);
    const dir = inMemory ? MEMORY : resolve(this.dataDir);
    if (!inMemory) {
      // Checked once, here, before the lock is taken beside the directory (ownerOnlyDir leaves
      // the parent to its caller; the worker trusts what this thread checked).
      refuseUntrustedParent(dir);
      mkdirSync(dirname(dir), { recursive: true, mode: 0o700 });
      this.lock = new DataDirLock(`${dir}.lock`);
      this.lock.lock(dir);
      try {
        ownerOnlyDir(dir);
      } catch (err) {
        await this.release();
        throw err;
      }
    }
    const inside = inMemory ? undefined : join(dir, SOCKET_DIR);
    // A deep data directory would make the socket's path too long; mkdtemp makes its dir 0700.
    this.socket =
      inside && socketPathFits(inside) ? inside : mkdtempSync(join(tmpdir(), 'pglite-'));
    try {
      await this.spawn({ dataDir: dir, socketDir: this.socket });
      return socketUrl(this.socket);
    } catch (err) {
      await this.release();
      throw err;
    }
  }

  private spawn(workerData: EmbeddedWorkerData): Promise<void> {
    const worker = new Worker(WORKER_FILE, { workerData, execArgv: WORKER_EXEC_ARGV });
    this.worker = worker;
    this.exited = new Promise((done) => worker.once('exit', done));
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.once('message', (reply: EmbeddedWorkerReply) => {
        ready = 'ready' in reply;
        if (ready) resolve();
        else
          reject(new Error('error' in reply ? reply.error : 'The embedded database did not start'));
      });
      worker.on('error', (err: Error) => {
        if (ready) this.onFailure(`The embedded database failed: ${err.message}`);
        reject(err);
      });
      worker.once('exit', (code) => {
        if (ready && this.worker === worker) {
          this.onFailure(`The embedded database stopped unexpectedly (exit code ${code})`);
        }
        reject(new Error(`The embedded database stopped while starting (exit code ${code})`));
      });
    });
  }

  /** Closes PGlite in its worker (it writes its files then) and releases the data directory. */
  async stop(): Promise<void> {
    this.starting = undefined;
    await this.release();
  }

  private async release(): Promise<void> {
    const { worker, exited } = this;
    this.worker = undefined;
    this.exited = undefined;
    if (worker && exited) {
      worker.postMessage('stop' satisfies EmbeddedWorkerRequest);
      const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
      await exited;
      clearTimeout(timer);
    }
    if (this.socket) rmSync(this.socket, { recursive: true, force: true });
    this.socket = undefined;
    this.lock?.unlock();
    this.lock = undefined;
  }
}

let early: EmbeddedPostgresServer | undefined;

/**
 * Starts the embedded database before anything else loads (embedded-postgres.early.ts), so PGlite
 * boots while the app's modules load. Plain Node only here: no Nest, no configuration classes.
 */
export function startEarly(dataDir: string): void {
  if (early) return;
  early = new EmbeddedPostgresServer(dataDir);
  // Only started here: whoever takes it over awaits the same promise and reports a failure.
  early.start().catch(() => undefined);
}

/** The early server if it was started on this data directory (else it is stopped); handed over once. */
export async function takeEarly(dataDir: string): Promise<EmbeddedPostgresServer | undefined> {
  const server = early;
  early = undefined;
  if (!server) return undefined;
  if (server.dataDir === dataDir) return server;
  await server.stop();
  return undefined;
}

/** Stops the early server if no one took it over (a command that failed before needing it). */
export async function stopEarly(): Promise<void> {
  const server = early;
  early = undefined;
  await server?.stop();
}
