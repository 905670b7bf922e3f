import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DataDirLock } from './embedded-postgres.server';

describe('DataDirLock', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lock-'));

  it('writes our pid, and removes the file on unlock', () => {
    const lock = new DataDirLock(join(dir, 'a.lock'));
    lock.lock('a');
    expect(readFileSync(lock.path, 'utf8')).toBe(String(process.pid));
    lock.unlock();
    expect(existsSync(lock.path)).toBe(false);
  });

  it('refuses a directory held by another live process, naming it', () => {
    const path = join(dir, 'b.lock');
    writeFileSync(path, String(process.ppid)); // the parent is certainly alive
    expect(() => new DataDirLock(path).lock('/data/b')).toThrow(
      new RegExp(`/data/b is in use by process ${process.ppid}`),
    );
  });

  it('takes over a stale lock whose process is gone', () => {
    const path = join(dir, 'c.lock');
    writeFileSync(path, '999999999');
    const lock = new DataDirLock(path);
    expect(() => lock.lock('c')).not.toThrow();
    lock.unlock();
  });
});
