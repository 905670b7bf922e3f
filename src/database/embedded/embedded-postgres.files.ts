import {
  closeSync,
  constants,
  fchmodSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  rmSync,
} from 'node:fs';
import { join } from 'node:path';
import { NO_FOLLOW, refuseUntrustedParent, withTrustedDir } from './embedded-postgres.trust';

/** The socket's name in its directory: what `pg` and psql look for given `host=<dir>`, port 5432. */
export const SOCKET_FILE = '.s.PGSQL.5432';

/** Linux's limit on a Unix socket path (sun_path is 108 bytes with the final NUL). */
const MAX_SOCKET_PATH = 107;

/** True when a socket in `dir` has a path short enough to listen on. */
export function socketPathFits(dir: string): boolean {
  return Buffer.byteLength(join(dir, SOCKET_FILE)) <= MAX_SOCKET_PATH;
}

/**
 * Makes a directory for the data or the socket that only this user may enter: created 0700, and
 * set to 0700 if it already existed looser. One that is a link, another user's, or writable by
 * group or others is refused (embedded-postgres.trust.ts). The directory it is made in is the
 * caller's to check first (refuseUntrustedParent), once: the data directory's before its lock.
 */
export function ownerOnlyDir(dir: string, what = 'The embedded data directory'): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  withTrustedDir(dir, what, (fd) => fchmodSync(fd, 0o700));
}

/** A fresh socket directory: a stale socket from a crash would stop the listen. */
export function freshSocketDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  refuseUntrustedParent(dir);
  ownerOnlyDir(dir, "The embedded database's socket directory");
}

/**
 * Takes group and other bits off `dir` and everything under it. PGlite's file system (Emscripten
 * over Node's fs) chmods each file it creates to 0666, whatever the umask, so a umask cannot do
 * this; the 0700 top directory keeps others out of files it creates while running.
 */
export function restrictToOwner(dir: string): void {
  restrictOne(dir, constants.O_DIRECTORY);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    // Links (a chmod would follow them out) and sockets (cannot be opened) are left alone.
    if (entry.isDirectory()) restrictToOwner(path);
    else if (entry.isFile()) restrictOne(path, constants.O_NONBLOCK);
  }
}

/** Takes group and other bits off one file or directory through a descriptor that refused a link. */
function restrictOne(path: string, flags: number): void {
  const fd = openSync(path, constants.O_RDONLY | NO_FOLLOW | flags);
  try {
    const mode = fstatSync(fd).mode & 0o7777;
    if (mode & 0o077) fchmodSync(fd, mode & 0o7700);
  } finally {
    closeSync(fd);
  }
}
