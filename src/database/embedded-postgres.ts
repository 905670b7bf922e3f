import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { AppConfig } from '../config/app-config';

const MEMORY = 'memory://';

/** Extra socket slots beyond the pool: TypeORM's migration lock connection and a health ping. */
const SPARE_CONNECTIONS = 4;

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
 * PGlite (PostgreSQL compiled to WebAssembly) served on 127.0.0.1 by pglite-socket, so the app
 * reaches it through the same `pg` driver it uses for a real server. Started only when
 * DATABASE_URL is unset.
 */
@Injectable()
export class EmbeddedPostgres implements OnApplicationShutdown {
  private readonly logger = new Logger('EmbeddedPostgres');
  private db?: PGlite;
  private server?: PGLiteSocketServer;
  private lock?: DataDirLock;
  private url?: string;

  constructor(private readonly config: AppConfig) {}

  async start(): Promise<string> {
    if (this.url) return this.url;
    const dataDir = this.config.pgliteDataDir;
    const inMemory = dataDir.startsWith(MEMORY);
    if (!inMemory) {
      const dir = resolve(dataDir);
      mkdirSync(dirname(dir), { recursive: true });
      this.lock = new DataDirLock(`${dir}.lock`);
      this.lock.lock(dir);
    }
    try {
      this.db = await PGlite.create(inMemory ? MEMORY : resolve(dataDir));
      this.server = new PGLiteSocketServer({
        db: this.db,
        host: '127.0.0.1',
        port: 0,
        maxConnections: this.config.databasePoolSize + SPARE_CONNECTIONS,
      });
      await this.server.start();
    } catch (err) {
      await this.stop();
      throw err;
    }
    const [, port] = this.server.getServerConn().split(':');
    this.url = `postgres://postgres@127.0.0.1:${port}/postgres`;
    this.logger.log(`Embedded PostgreSQL (PGlite) on 127.0.0.1:${port}, data in ${dataDir}`);
    return this.url;
  }

  async stop(): Promise<void> {
    await this.server?.stop().catch(() => undefined);
    if (this.db && !this.db.closed) await this.db.close();
    this.lock?.unlock();
    this.server = undefined;
    this.db = undefined;
    this.url = undefined;
  }

  async onApplicationShutdown(): Promise<void> {
    await this.stop();
  }
}
