import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { inspect } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { freshSocketDir, restrictToOwner, SOCKET_FILE } from './embedded-postgres.files';
import { EmbeddedSocketServer } from './embedded-postgres.socket';

const MEMORY = 'memory://';
/**
 * PGlite starts with a server's defaults (shared_buffers 128 MB), and PostgreSQL touches all of
 * its shared memory at start, which in WebAssembly is resident from then on: the service idled at
 * ~360 MB. 8 MB holds the hot pages of an embedded install (the kind of deployment this is for);
 * what misses is read through the file system cache. Idle: ~215 MB (docs/benchmarks.md).
 */
const POSTGRESQL_CONF = ['shared_buffers = 8MB'];

/** What the worker is started with. */
export interface EmbeddedWorkerData {
  /** `memory://` or an absolute directory. */
  dataDir: string;
  /** An absolute directory for the Unix socket; the worker makes it afresh, mode 0700. */
  socketDir: string;
}

/** The worker's answers: ready once serving, an error if it could not start, stopped on request. */
export type EmbeddedWorkerReply = { ready: true } | { error: string } | { stopped: true };

/** The one request the worker takes after starting: close the database and end. */
export type EmbeddedWorkerRequest = 'stop';

/**
 * Runs in a worker thread: PGlite and its socket server, off the main thread. Its WebAssembly
 * compile and startup then overlap with the app loading, and its queries run beside the HTTP work.
 */
async function serve(port: NonNullable<typeof parentPort>, data: EmbeddedWorkerData) {
  const onDisk = !data.dataDir.startsWith(MEMORY);
  let db: PGlite | undefined;
  let server: EmbeddedSocketServer | undefined;
  const close = async () => {
    await server?.close().catch(() => undefined);
    if (db && !db.closed) await db.close();
    // Files PGlite made while running are 0666 (inside the 0700 directory): fix them on the way out.
    if (onDisk) restrictToOwner(data.dataDir);
  };
  try {
    // The data directory was checked and made 0700 by the server before it started this worker.
    db = await PGlite.create(data.dataDir, { postgresqlconf: POSTGRESQL_CONF });
    if (onDisk) restrictToOwner(data.dataDir);
    // Made after PGlite.create, so the initdb of a new data directory starts from an empty one.
    freshSocketDir(data.socketDir);
    server = new EmbeddedSocketServer(db);
    const socket = join(data.socketDir, SOCKET_FILE);
    await server.listen(socket);
    chmodSync(socket, 0o600); // made per the umask; its 0700 directory already keeps others out
  } catch (err) {
    await close().catch(() => undefined);
    // PGlite's file-system errors are plain objects (`ErrnoError { errno }`), not Errors.
    const error = err instanceof Error ? err.message : inspect(err, { colors: false });
    port.postMessage({ error } satisfies EmbeddedWorkerReply);
    return;
  }
  port.on('message', (msg: unknown) => {
    if (msg !== ('stop' satisfies EmbeddedWorkerRequest)) return;
    void close()
      .catch(() => undefined)
      .then(() => {
        port.postMessage({ stopped: true } satisfies EmbeddedWorkerReply);
        port.close();
      });
  });
  port.postMessage({ ready: true } satisfies EmbeddedWorkerReply);
}

if (parentPort) void serve(parentPort, workerData as EmbeddedWorkerData);
