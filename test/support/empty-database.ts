import { ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';

/**
 * A database of the run's kind with nothing in it, for behaviour that needs an empty database
 * (the shared one fills up with other specs' rows): a fresh database on the PostgreSQL server,
 * or an in-memory PGlite in a child process (PGlite cannot load inside Jest's module registry).
 */
export interface EmptyDatabase {
  url: string;
  stop(): Promise<void>;
}

const PGLITE_CHILD = `
const { PGlite } = await import('@electric-sql/pglite');
const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
const db = await PGlite.create('memory://');
const server = new PGLiteSocketServer({ db, host: '127.0.0.1', port: 0, maxConnections: 16 });
await server.start();
process.stdout.write(server.getServerConn() + '\\n');
process.stdin.on('end', () => process.exit(0));
process.stdin.resume();
`;

async function pgliteChild(): Promise<EmptyDatabase> {
  const child: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', PGLITE_CHILD], {
    cwd: process.cwd(),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const conn = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('\n')) resolve(out.trim());
    });
    child.once('exit', (code) => reject(new Error(`PGlite child exited with ${code}`)));
  });
  const [, port] = conn.split(':');
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.stdin!.end();
      await exited;
    },
  };
}

async function serverDatabase(serverUrl: string): Promise<EmptyDatabase> {
  const name = `dc_e2e_empty_${Date.now()}_${randomBytes(3).toString('hex')}`;
  const run = async (sql: string) => {
    const c = new Client({ connectionString: serverUrl });
    await c.connect();
    await c.query(sql);
    await c.end();
  };
  await run(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    stop: () => run(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`),
  };
}

export function emptyDatabase(): Promise<EmptyDatabase> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  return serverUrl ? serverDatabase(serverUrl) : pgliteChild();
}
