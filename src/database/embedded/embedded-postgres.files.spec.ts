import {
  chmodSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshSocketDir, restrictToOwner, socketPathFits } from './embedded-postgres.files';

const modeOf = (path: string) => lstatSync(path).mode & 0o777;

describe('embedded database files', () => {
  const root = mkdtempSync(join(tmpdir(), 'files-'));

  it('takes group and other bits off everything under a directory, not following links', () => {
    const dir = join(root, 'data');
    mkdirSync(join(dir, 'base', '1'), { recursive: true, mode: 0o755 });
    writeFileSync(join(dir, 'base', '1', '1259'), 'x', { mode: 0o666 });
    writeFileSync(join(dir, 'PG_VERSION'), '17', { mode: 0o644 });
    const outside = join(root, 'outside');
    writeFileSync(outside, 'x', { mode: 0o644 });
    chmodSync(outside, 0o644);
    symlinkSync(outside, join(dir, 'link'));
    chmodSync(dir, 0o775);
    restrictToOwner(dir);
    expect(modeOf(dir)).toBe(0o700);
    expect(modeOf(join(dir, 'base'))).toBe(0o700);
    expect(modeOf(join(dir, 'base', '1'))).toBe(0o700);
    expect(modeOf(join(dir, 'base', '1', '1259'))).toBe(0o600);
    expect(modeOf(join(dir, 'PG_VERSION'))).toBe(0o600);
    expect(modeOf(outside)).toBe(0o644);
  });

  it('makes the socket directory afresh, mode 0700, whatever was there', () => {
    const dir = join(root, 'socket');
    mkdirSync(dir, { mode: 0o777 });
    writeFileSync(join(dir, '.s.PGSQL.5432'), 'stale');
    freshSocketDir(dir);
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(() => statSync(join(dir, '.s.PGSQL.5432'))).toThrow();
  });

  it('knows when a socket path would be too long to listen on', () => {
    expect(socketPathFits('/tmp/x')).toBe(true);
    expect(socketPathFits(`/tmp/${'d'.repeat(100)}`)).toBe(false);
  });
});
