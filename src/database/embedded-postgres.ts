import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname, extname, join, resolve } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { AppConfig } from '../config/app-config';
// Types only: the worker module itself loads PGlite, which the main thread never needs.
import type {
  EmbeddedWorkerData,
  EmbeddedWorkerReply,
  EmbeddedWorkerRequest,
} from './embedded-postgres.worker';

const MEMORY = 'memory://';

/** Extra socket slots beyond the pool: TypeORM's migration lock connection and a health ping. */
const SPARE_CONNECTIONS = 4;
/** How long a stopping worker gets to close PGlite (which writes its files) before it is ended. */
const STOP_TIMEOUT_MS = 10_000;

/** Beside this file: compiled JavaScript in dist/, TypeScript under ts-node (`npm run cli`). */
const WORKER_FILE = join(__dirname, `embedded-postgres.worker${extname(__filename)}`);
/** Nothing inherited from the main thread's flags (a profiler, preloads); ts-node for a .ts file. */
const WORKER_EXEC_ARGV =
  extname(__filename) === '.ts' ? ['-r', 'ts-node/register/transpile-only'] : [];

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A PID lock file beside the data directory. PGlite corrupts a directory that two processes open,
 * so a second process fails here with a message instead.
 */
export class DataDirLock {
  private held = false;
  private readonly release = (): void => this.unlock();

  constructor(readonly path: string) {}

  lock(dataDir: string): void {
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        const fd = openSync(this.path, 'wx');
        writeSync(fd, String(process.pid));
        closeSync(fd);
        this.held = true;
        process.once('exit', this.release);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const pid = Number(readFileSync(this.path, 'utf8').trim());
        if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && isAlive(pid)) {
          throw new Error(
            `The embedded database in ${dataDir} is in use by process ${pid}. ` +
              'Stop that process first, or set DATABASE_URL to use a PostgreSQL server.',
          );
        }
        rmSync(this.path, { force: true }); // stale: its process is gone
      }
    }
    throw new Error(`Could not take the lock ${this.path}`);
  }

  unlock(): void {
    if (!this.held) return;
    this.held = false;
    process.removeListener('exit', this.release);
    rmSync(this.path, { force: true });
  }
}

/**
 * PGlite (PostgreSQL compiled to WebAssembly) served on 127.0.0.1 by pglite-socket in a worker
 * thread (embedded-postgres.worker.ts), so the app reaches it through the same `pg` driver it uses
 * for a real server, and its startup and queries run beside the main thread rather than on it.
 */
export class EmbeddedPostgresServer {
  private readonly logger = new Logger('EmbeddedPostgres');
  private worker?: Worker;
  private exited?: Promise<unknown>;
  private lock?: DataDirLock;
  private starting?: Promise<string>;

  constructor(
    readonly dataDir: string,
    readonly maxConnections: number,
  ) {}

  /** The connection URL; the first call starts the worker, later ones share its answer. */
  start(): Promise<string> {
    this.starting ??= this.launch();
    return this.starting;
  }

  private async launch(): Promise<string> {
    const inMemory = this.dataDir.startsWith(MEMORY);
    const dir = inMemory ? MEMORY : resolve(this.dataDir);
    if (!inMemory) {
      mkdirSync(dirname(dir), { recursive: true });
      this.lock = new DataDirLock(`${dir}.lock`);
      this.lock.lock(dir);
    }
    try {
      const port = await this.spawn({ dataDir: dir, maxConnections: this.maxConnections });
      return `postgres://postgres@127.0.0.1:${port}/postgres`;
    } catch (err) {
      await this.release();
      throw err;
    }
  }

  private spawn(workerData: EmbeddedWorkerData): Promise<number> {
    const worker = new Worker(WORKER_FILE, { workerData, execArgv: WORKER_EXEC_ARGV });
    this.worker = worker;
    this.exited = new Promise((done) => worker.once('exit', done));
    return new Promise((resolve, reject) => {
      let ready = false;
      worker.once('message', (reply: EmbeddedWorkerReply) => {
        ready = 'port' in reply;
        if ('port' in reply) resolve(reply.port);
        else
          reject(new Error('error' in reply ? reply.error : 'The embedded database did not start'));
      });
      worker.on('error', (err) => {
        if (ready) this.logger.error(`The embedded database failed: ${err.message}`);
        reject(err);
      });
      worker.once('exit', (code) => {
        if (ready && this.worker === worker) {
          this.logger.error(`The embedded database stopped unexpectedly (exit code ${code})`);
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
    this.lock?.unlock();
    this.lock = undefined;
  }
}

const serverFor = (config: AppConfig) =>
  new EmbeddedPostgresServer(config.pgliteDataDir, config.databasePoolSize + SPARE_CONNECTIONS);

let early: EmbeddedPostgresServer | undefined;

/**
 * Starts the embedded database before Nest does (see embedded-postgres.early.ts), so PGlite boots
 * while the app's modules load. Does nothing when DATABASE_URL names a server.
 */
export function startEmbeddedPostgresEarly(config: AppConfig): void {
  if (config.databaseUrl || early) return;
  early = serverFor(config);
  // Only started here: EmbeddedPostgres.start() awaits the same promise and reports a failure.
  early.start().catch(() => undefined);
}

/** The early server when it was started for this configuration (else stopped); handed over once. */
async function takeEarly(config: AppConfig): Promise<EmbeddedPostgresServer | undefined> {
  const server = early;
  early = undefined;
  if (!server) return undefined;
  const wanted = serverFor(config);
  if (server.dataDir === wanted.dataDir && server.maxConnections === wanted.maxConnections) {
    return server;
  }
  await server.stop();
  return undefined;
}

/** The embedded database as a Nest provider. Started only when DATABASE_URL is unset. */
@Injectable()
export class EmbeddedPostgres implements OnApplicationShutdown {
  private readonly logger = new Logger('EmbeddedPostgres');
  private server?: EmbeddedPostgresServer;
  private url?: string;

  constructor(private readonly config: AppConfig) {}

  async start(): Promise<string> {
    if (this.url) return this.url;
    this.server ??= (await takeEarly(this.config)) ?? serverFor(this.config);
    const url = await this.server.start();
    if (!this.url) {
      this.url = url;
      const port = new URL(url).port;
      this.logger.log(
        `Embedded PostgreSQL (PGlite) on 127.0.0.1:${port}, data in ${this.config.pgliteDataDir}`,
      );
    }
    return url;
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    this.url = undefined;
    await server?.stop();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }
}
