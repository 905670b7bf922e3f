import { constants } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';

/**
 * The embedded default's key file (docs/privacy.md, "Without a key"), beside the data directory,
 * which may sit in a directory other local users share (`/tmp`): it is trusted only when it is a
 * regular file of the service's user that no one else may read or write, opened without following
 * a link, and made only where nothing is yet (`O_EXCL`), so no one can hand the service a key.
 */

/** 32 bytes in base64, as `DATA_ENCRYPTION_KEY` (config/env.validation.ts). */
const KEY_TEXT = /^[A-Za-z0-9+/]{43}=$/;
const READ = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
const CREATE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const FIX =
  'remove it only if the data beside it is new (its data cannot be read without it), or set DATA_ENCRYPTION_KEY';

/** Linux answers a link under O_NOFOLLOW with ELOOP (some systems with EMLINK). */
const isLink = (err: unknown) =>
  ['ELOOP', 'EMLINK'].includes((err as NodeJS.ErrnoException).code ?? '');

function refused(path: string, what: string, fix = FIX): Error {
  return new Error(`The key file ${path} ${what}; ${fix}.`);
}

/** The key in the file, or undefined when there is no file; throws naming the file when it is not ours. */
export async function readKeyFile(path: string): Promise<Buffer | undefined> {
  let file: FileHandle;
  try {
    file = await open(path, READ);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    if (isLink(err))
      throw refused(
        path,
        'is a symbolic link, which another user may have planted',
        'remove it (the service makes its own)',
      );
    throw err;
  }
  try {
    const stats = await file.stat();
    const uid = process.getuid?.();
    if (!stats.isFile()) throw refused(path, 'is not a regular file', 'remove it');
    if (uid !== undefined && stats.uid !== uid) {
      throw refused(
        path,
        `is owned by uid ${stats.uid}, not by the service's user (uid ${uid})`,
        'remove it',
      );
    }
    if (stats.mode & 0o077) {
      const mode = (stats.mode & 0o7777).toString(8).padStart(4, '0');
      throw refused(
        path,
        `is open to group or others (mode ${mode})`,
        `restrict it (chmod 600 ${path}) if you made it, else remove it`,
      );
    }
    const text = (await file.readFile('utf8')).trim();
    // Its length only: the text may be (part of) a key.
    if (!KEY_TEXT.test(text)) {
      throw refused(
        path,
        `is not a key: it holds ${text.length} characters, not 32 bytes in base64 (44 characters)`,
      );
    }
    return Buffer.from(text, 'base64');
  } finally {
    await file.close();
  }
}

/** Writes `key` to a file made here, mode 0600; false when something is already there. */
export async function createKeyFile(path: string, key: Buffer): Promise<boolean> {
  let file: FileHandle;
  try {
    file = await open(path, CREATE, 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await file.chmod(0o600); // the umask may only have narrowed it; say it exactly
    await file.writeFile(`${key.toString('base64')}\n`);
    await file.sync();
  } finally {
    await file.close();
  }
  return true;
}
