import {
  chmodSync,
  chownSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnServer } from './server-process';

/** The second local user of the hostile cases (Debian's `nobody`). */
export const OTHER_UID = 65534;

/** Making files another user owns needs root; the other cases run as anyone. */
export const canChown = process.getuid?.() === 0;

export interface HostileCase {
  name: string;
  /** Only as root: it makes files owned by OTHER_UID. */
  needsRoot: boolean;
  /** Lays the trap under `root`; returns the PGLITE_DATA_DIR to boot with. */
  plant(root: string, victim: string): string;
  /** What the boot line must name. */
  expected: RegExp;
  /** Settings beside PGLITE_DATA_DIR (undefined: left out). */
  env?: Record<string, string | undefined>;
}

/** What another local user can leave where the service's data directory will be. */
export const HOSTILE_CASES: HostileCase[] = [
  {
    name: 'data directory is a symbolic link to another tree',
    needsRoot: false,
    plant: (root, victim) => {
      symlinkSync(victim, join(root, 'pglite'));
      return join(root, 'pglite');
    },
    expected: /pglite is a symbolic link/,
  },
  {
    name: 'data directory made beforehand by another user',
    needsRoot: true,
    plant: (root) => {
      mkdirSync(join(root, 'pglite'), { mode: 0o700 });
      chownSync(join(root, 'pglite'), OTHER_UID, OTHER_UID);
      return join(root, 'pglite');
    },
    expected: new RegExp(`pglite is owned by uid ${OTHER_UID}`),
  },
  {
    name: 'data directory writable by others',
    needsRoot: false,
    plant: (root) => {
      mkdirSync(join(root, 'pglite'));
      chmodSync(join(root, 'pglite'), 0o777);
      return join(root, 'pglite');
    },
    expected: /pglite is writable by group or others \(mode 0777\)/,
  },
  {
    name: 'lock written by another user',
    needsRoot: true,
    plant: (root) => {
      writeFileSync(join(root, 'pglite.lock'), '1');
      chownSync(join(root, 'pglite.lock'), OTHER_UID, OTHER_UID);
      return join(root, 'pglite');
    },
    expected: new RegExp(`lock .*pglite\\.lock is owned by uid ${OTHER_UID}`),
  },
  {
    name: 'lock is a symbolic link',
    needsRoot: false,
    plant: (root, victim) => {
      symlinkSync(join(victim, 'file'), join(root, 'pglite.lock'));
      return join(root, 'pglite');
    },
    expected: /pglite\.lock is a symbolic link/,
  },
  {
    name: 'parent directory owned by another user',
    needsRoot: true,
    plant: (root) => {
      mkdirSync(join(root, 'theirs'), { mode: 0o755 });
      chownSync(join(root, 'theirs'), OTHER_UID, OTHER_UID);
      return join(root, 'theirs', 'pglite');
    },
    expected: new RegExp(`theirs is owned by uid ${OTHER_UID}`),
  },
  {
    name: 'parent directory writable by group',
    needsRoot: false,
    plant: (root) => {
      mkdirSync(join(root, 'shared'));
      chmodSync(join(root, 'shared'), 0o775);
      return join(root, 'shared', 'pglite');
    },
    expected: /shared is writable by group or others \(mode 0775\)/,
  },
  {
    name: 'key file is a symbolic link to a readable file holding a chosen key',
    needsRoot: false,
    plant: (root, victim) => {
      writeFileSync(join(victim, 'key'), `${'A'.repeat(43)}=`, { mode: 0o644 });
      symlinkSync(join(victim, 'key'), join(root, 'pglite.data-key'));
      return join(root, 'pglite');
    },
    expected: /key file .*pglite\.data-key is a symbolic link/,
    env: { DATA_ENCRYPTION_KEY: undefined },
  },
  {
    name: 'key file made first by another user',
    needsRoot: true,
    plant: (root) => {
      writeFileSync(join(root, 'pglite.data-key'), `${'A'.repeat(43)}=`, { mode: 0o600 });
      chownSync(join(root, 'pglite.data-key'), OTHER_UID, OTHER_UID);
      return join(root, 'pglite');
    },
    expected: new RegExp(`key file .*pglite\\.data-key is owned by uid ${OTHER_UID}`),
    env: { DATA_ENCRYPTION_KEY: undefined },
  },
  {
    name: 'key file of 3 bytes',
    needsRoot: false,
    plant: (root) => {
      writeFileSync(join(root, 'pglite.data-key'), 'abc', { mode: 0o600 });
      return join(root, 'pglite');
    },
    expected: /key file .*pglite\.data-key is not a key/,
    env: { DATA_ENCRYPTION_KEY: undefined },
  },
];

export interface HostileOutcome {
  /** The exit code of a refused boot, or 'booted' when it served on the trap. */
  exitCode: number | null | 'booted';
  bootLine: string;
  /** Paths under the victim tree whose mode changed. */
  chmodded: string[];
}

/** Every mode under `dir`, by path, links not followed. */
function modes(dir: string): Map<string, number> {
  const out = new Map<string, number>([[dir, lstatSync(dir).mode]]);
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    out.set(path, lstatSync(path).mode);
  }
  return out;
}

/**
 * Boots the real server (embedded, whatever the run's database) on the planted data directory,
 * beside a victim tree another user owns, and reports how it ended and what it chmodded there.
 */
export async function bootOnHostile(c: HostileCase): Promise<HostileOutcome> {
  const root = mkdtempSync(join(tmpdir(), 'dc-hostile-'));
  const victim = join(root, 'victim');
  mkdirSync(join(victim, 'sub'), { recursive: true });
  writeFileSync(join(victim, 'file'), 'theirs');
  chmodSync(victim, 0o755);
  chmodSync(join(victim, 'sub'), 0o755);
  chmodSync(join(victim, 'file'), 0o644);
  if (canChown) chownSync(victim, OTHER_UID, OTHER_UID);
  const before = modes(victim);
  const dataDir = c.plant(root, victim);
  const server = await spawnServer(
    { DATABASE_URL: '', PGLITE_DATA_DIR: dataDir, ...c.env },
    { boot: false },
  );
  try {
    const booted = server.waitForLine(/Listening on http/).then(
      () => 'booted' as const,
      () => undefined,
    );
    const exitCode: HostileOutcome['exitCode'] = await Promise.race([booted, server.exited]).then(
      (first) => (first === undefined ? server.exited : first),
    );
    const bootLine = server.lines.find((l) => /boot failed/.test(l)) ?? server.lines.join('\n');
    const after = modes(victim);
    const chmodded = [...before].filter(([path, mode]) => after.get(path) !== mode).map(([p]) => p);
    return { exitCode, bootLine, chmodded };
  } finally {
    await server.cleanup();
    rmSync(root, { recursive: true, force: true });
  }
}
