import { inspect } from 'node:util';
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

/** What the worker is started with. */
export interface EmbeddedWorkerData {
  /** `memory://` or an absolute directory. */
  dataDir: string;
  maxConnections: number;
}

/** The worker's answers: the port once serving, an error if it could not start, stopped on request. */
export type EmbeddedWorkerReply = { port: number } | { error: string } | { stopped: true };

/** The one request the worker takes after starting: close the database and end. */
export type EmbeddedWorkerRequest = 'stop';

/**
 * Runs in a worker thread: PGlite and its socket server, off the main thread. Its WebAssembly
 * compile and startup then overlap with the app loading, and its queries run beside the HTTP work.
 */
async function serve(port: NonNullable<typeof parentPort>, data: EmbeddedWorkerData) {
  let db: PGlite | undefined;
  let server: PGLiteSocketServer | undefined;
  const close = async () => {
    await server?.stop().catch(() => undefined);
    if (db && !db.closed) await db.close();
  };
  try {
    db = await PGlite.create(data.dataDir);
    server = new PGLiteSocketServer({
      db,
      host: '127.0.0.1',
      port: 0,
      maxConnections: data.maxConnections,
    });
    await server.start();
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
  const [, listening] = server.getServerConn().split(':');
  port.postMessage({ port: Number(listening) } satisfies EmbeddedWorkerReply);
}

if (parentPort) void serve(parentPort, workerData as EmbeddedWorkerData);
