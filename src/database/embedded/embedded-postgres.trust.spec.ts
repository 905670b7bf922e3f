import { chmodSync, lstatSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ownerOnlyDir } from './embedded-postgres.files';
import { refuseUntrustedParent, UntrustedPathError } from './embedded-postgres.trust';

describe('embedded data directory trust', () => {
  const root = mkdtempSync(join(tmpdir(), 'trust-'));

  it('creates into a sticky world-writable directory (/tmp) and a root-owned one', () => {
    expect(() => refuseUntrustedParent(join(tmpdir(), 'x', 'y', 'pglite'))).not.toThrow();
    expect(() => refuseUntrustedParent('/nonexistent-root-child/pglite')).not.toThrow();
  });

  it('refuses a group-writable parent without the sticky bit', () => {
    const shared = join(root, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o775);
    expect(() => refuseUntrustedParent(join(shared, 'pglite'))).toThrow(UntrustedPathError);
  });

  it('refuses a data directory that is a link, leaving its target as it was', () => {
    const target = join(root, 'target');
    mkdirSync(target);
    chmodSync(target, 0o755);
    symlinkSync(target, join(root, 'link'));
    expect(() => ownerOnlyDir(join(root, 'link'))).toThrow(/is a symbolic link/);
    expect(lstatSync(target).mode & 0o777).toBe(0o755);
  });

  it('tightens a directory of its own that others may only read', () => {
    const own = join(root, 'own');
    mkdirSync(own);
    chmodSync(own, 0o755);
    ownerOnlyDir(own);
    expect(lstatSync(own).mode & 0o777).toBe(0o700);
  });
});
