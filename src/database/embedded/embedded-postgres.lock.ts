import {
  closeSync,
  constants,
  fstatSync,
  openSync,
  readFileSync,
  rmSync,
  writeSync,
} from 'node:fs';
import { NO_FOLLOW, refuseUntrusted, UntrustedPathError } from './embedded-postgres.trust';

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
        const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NO_FOLLOW;
        const fd = openSync(this.path, flags, 0o600);
        writeSync(fd, String(process.pid));
        closeSync(fd);
        this.held = true;
        process.once('exit', this.release);
        return;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        const pid = Number(this.readExisting());
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

  /** The PID in a lock already there, once it is shown to be a file of the service's user. */
  private readExisting(): string {
    let fd: number;
    try {
      fd = openSync(this.path, constants.O_RDONLY | constants.O_NONBLOCK | NO_FOLLOW);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ELOOP') throw err;
      throw new UntrustedPathError(
        `The lock ${this.path} is a symbolic link, which another user may have planted; remove it.`,
      );
    }
    try {
      const stats = fstatSync(fd);
      refuseUntrusted(stats, this.path, 'The lock');
      if (!stats.isFile()) {
        throw new UntrustedPathError(`The lock ${this.path} is not a regular file; remove it.`);
      }
      return readFileSync(fd, 'utf8').trim();
    } finally {
      closeSync(fd);
    }
  }

  unlock(): void {
    if (!this.held) return;
    this.held = false;
    process.removeListener('exit', this.release);
    rmSync(this.path, { force: true });
  }
}
