import { spawnSync } from 'node:child_process';
import {
  existsSync,
  lstatSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { SOCKET_FILE } from './embedded-postgres.files';
import { DataDirLock } from './embedded-postgres.lock';
import { EmbeddedPostgresServer } from './embedded-postgres.server';

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

/** Every path under `dir` (itself included) whose mode lets group or others in. */
function openToOthers(dir: string): string[] {
  const found = (statSync(dir).mode & 0o077) !== 0 ? [dir] : [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    if (!entry.isSymbolicLink() && (lstatSync(path).mode & 0o077) !== 0) found.push(path);
  }
  return found;
}

describe('EmbeddedPostgresServer on a data directory: the service user only', () => {
  const root = mkdtempSync(join(tmpdir(), 'embedded-'));
  const dataDir = join(root, 'pglite');
  const server = new EmbeddedPostgresServer(dataDir);
  let url: string;
  beforeAll(async () => {
    url = await server.start();
  }, 60_000);
  afterAll(() => server.stop());

  it('listens on a Unix socket only, in a directory of mode 0700 inside the data directory', async () => {
    const socketDir = join(dataDir, 'socket');
    expect(server.socketDir).toBe(socketDir);
    expect(new URL(url).searchParams.get('host')).toBe(socketDir);
    expect(statSync(socketDir).mode & 0o777).toBe(0o700);
    expect(statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(openToOthers(dataDir)).toEqual([]); // fixed after PGlite created it
    const client = new Client({ connectionString: url });
    await client.connect();
    expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await client.end();
  });

  // Only root can become another user (setpriv); run as anyone else, this test is skipped.
  (process.getuid?.() === 0 ? it : it.skip)('refuses another local user', () => {
    const run = (command: string[]) => {
      const [cmd, ...args] = command;
      return spawnSync(cmd, args, { encoding: 'utf8' });
    };
    const nobody = ['setpriv', '--reuid=nobody', '--regid=nogroup', '--clear-groups'];
    const psql = ['psql', url, '-Atc', 'SELECT 42'];
    expect(run(psql).stdout.trim()).toBe('42'); // the same client works for the service's user
    const refused = run([...nobody, ...psql]);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/Permission denied/);
    // Nor can a program of that user open the socket itself.
    const socket = join(dataDir, 'socket', SOCKET_FILE);
    const probe = `require('net').connect(${JSON.stringify(socket)})
      .on('connect', () => { console.log('connected'); process.exit(0); })
      .on('error', (e) => { console.log(e.code); process.exit(1); })`;
    expect(run([...nobody, process.execPath, '-e', probe]).stdout.trim()).toBe('EACCES');
  });

  it('leaves nothing under the data directory readable by others once stopped', async () => {
    const client = new Client({ connectionString: url });
    await client.connect();
    await client.query('CREATE TABLE made_while_running (x int)'); // new files, made 0666
    await client.end();
    await server.stop();
    expect(existsSync(join(dataDir, 'socket'))).toBe(false);
    expect(openToOthers(dataDir)).toEqual([]);
  });
});
