import { closeSync, constants, fstatSync, lstatSync, openSync, Stats } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Who may touch the embedded database's files (docs/embedded-database.md, "the data directory"):
 * only the service's own user. Anything on the way that another local user could have planted or
 * can still change (a symbolic link, their file, a directory they may write) is refused at boot.
 */

/** The open flags that refuse a symbolic link at the last component instead of following it. */
export const NO_FOLLOW = constants.O_NOFOLLOW;
/** The sticky bit (not in Node's fs.constants). */
const STICKY = 0o1000;
const DIR_NO_FOLLOW = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The service's uid; undefined where there are none (Windows), which skips the owner checks. */
function serviceUid(): number | undefined {
  return process.getuid?.();
}

/** A path refused for who could control it; the message names the path and the fix. */
export class UntrustedPathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UntrustedPathError';
  }
}

/** Writable by group or others, octal, for the messages. */
const looseBits = (stats: Stats) => stats.mode & 0o022;
const octal = (stats: Stats) => (stats.mode & 0o7777).toString(8).padStart(4, '0');

/**
 * Refuses `stats` of `path` (what the service is about to use as `what`) when another user owns
 * it or may write it. `rootMayOwn`: a directory root made (/var/lib, a container's /app) is
 * trusted as its parent; `sticky`: a sticky world-writable one (/tmp) keeps others from renaming
 * or replacing what we create in it.
 */
export function refuseUntrusted(
  stats: Stats,
  path: string,
  what: string,
  { rootMayOwn = false, sticky = false }: { rootMayOwn?: boolean; sticky?: boolean } = {},
): void {
  const uid = serviceUid();
  if (stats.isSymbolicLink()) {
    throw new UntrustedPathError(
      `${what} ${path} is a symbolic link, which another user may have planted; ` +
        'set PGLITE_DATA_DIR to a real directory path (no links), or remove the link.',
    );
  }
  if (uid !== undefined && stats.uid !== uid && !(rootMayOwn && stats.uid === 0)) {
    throw new UntrustedPathError(
      `${what} ${path} is owned by uid ${stats.uid}, not by the service's user (uid ${uid}); ` +
        `give it to that user (chown -R ${uid} ${path}) if its contents are yours, or choose another PGLITE_DATA_DIR.`,
    );
  }
  if (looseBits(stats) && !(sticky && stats.mode & STICKY)) {
    throw new UntrustedPathError(
      `${what} ${path} is writable by group or others (mode ${octal(stats)}); ` +
        `restrict it (chmod go-w ${path}) or choose another PGLITE_DATA_DIR.`,
    );
  }
}

/**
 * Checks the directory the service creates `path` into: the nearest existing ancestor of it
 * (what `mkdir -p` creates into). Directories it creates below are its own.
 */
export function refuseUntrustedParent(path: string): void {
  let dir = dirname(path);
  for (;;) {
    try {
      const stats = lstatSync(dir);
      refuseUntrusted(stats, dir, 'The directory holding the embedded database,', {
        rootMayOwn: true,
        sticky: true,
      });
      return;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || dirname(dir) === dir) throw err;
      dir = dirname(dir);
    }
  }
}

/**
 * Opens an existing directory without following a link, checks it as `what` and runs `use` on its
 * descriptor (a chmod there cannot be redirected by a link swapped in after the check).
 */
export function withTrustedDir<T>(dir: string, what: string, use: (fd: number) => T): T {
  let fd: number;
  try {
    fd = openSync(dir, DIR_NO_FOLLOW);
  } catch (err) {
    // Linux answers a link under O_NOFOLLOW with ELOOP, or ENOTDIR alongside O_DIRECTORY.
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP' || code === 'ENOTDIR') refuseUntrusted(lstatSync(dir), dir, what);
    throw err;
  }
  try {
    refuseUntrusted(fstatSync(fd), dir, what);
    return use(fd);
  } finally {
    closeSync(fd);
  }
}
