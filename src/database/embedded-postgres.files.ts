import { chmodSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';

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
 * set to 0700 if it already existed looser.
 */
export function ownerOnlyDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
}

/** A fresh socket directory: a stale socket from a crash would stop the listen. */
export function freshSocketDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  ownerOnlyDir(dir);
}

/**
 * Takes group and other bits off `dir` and everything under it. PGlite's file system (Emscripten
 * over Node's fs) chmods each file it creates to 0666, whatever the umask, so a umask cannot do
 * this; the 0700 top directory keeps others out of files it creates while running.
 */
export function restrictToOwner(dir: string): void {
  const mode = lstatSync(dir).mode & 0o7777;
  if (mode & 0o077) chmodSync(dir, mode & 0o7700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isSymbolicLink()) continue; // chmod would follow it out of the directory
    if (entry.isDirectory()) restrictToOwner(path);
    else {
      const fileMode = lstatSync(path).mode & 0o7777;
      if (fileMode & 0o077) chmodSync(path, fileMode & 0o7700);
    }
  }
}
