import { createServer, Server, Socket } from 'node:net';
// Types only: this module runs in the worker, which loads PGlite itself.
import type { PGlite } from '@electric-sql/pglite';
import { Gate } from './embedded-postgres.gate';

/*
 * Why not pglite-socket's PGLiteSocketServer: PGlite is one PostgreSQL session, and pglite-socket
 * queues work per protocol message, so the Parse/Bind/Execute/Sync of two connections interleave
 * in that session (one request's parameters bound to another's statement); it keeps a connection's
 * turn only while `isInTransaction()`. Here a connection holds PGlite for a whole unit of work.
 */

const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;
const CANCEL_REQUEST = 80877102;
/** Longer than any startup packet a client sends; a larger length is garbage. */
const MAX_STARTUP_LENGTH = 10_000;
const SYNC = 0x53; // 'S'
const QUERY = 0x51; // 'Q'
const TERMINATE = 0x58; // 'X'
const READY_FOR_QUERY = 0x5a; // 'Z'

type Batch =
  | { kind: 'refuse-encryption' }
  | { kind: 'cancel' }
  | { kind: 'terminate' }
  | { kind: 'startup'; message: Uint8Array }
  | { kind: 'messages'; message: Uint8Array; endsUnit: boolean };

function simpleQuery(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`);
  const message = Buffer.alloc(5 + text.length);
  message[0] = QUERY;
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}
const ROLLBACK = simpleQuery('ROLLBACK');
const SYNC_MESSAGE = Uint8Array.from([SYNC, 0, 0, 0, 4]);

/** One client connection: its bytes cut into messages, run on PGlite while it holds the gate. */
class Connection {
  /** Settles once the connection is closed and PGlite is left clean. */
  readonly gone: Promise<void>;
  private buffer = Buffer.alloc(0);
  private started = false;
  private holding = false;
  private closed = false;
  private draining = false;
  private done!: () => void;

  constructor(
    private readonly socket: Socket,
    private readonly db: PGlite,
    private readonly gate: Gate<Connection>,
  ) {
    this.gone = new Promise((resolve) => (this.done = resolve));
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      void this.drain();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      this.closed = true;
      this.gate.cancel(this);
      void this.drain();
    });
  }

  /** Runs what is buffered, one batch at a time; after the close, cleans up once. */
  private async drain(): Promise<void> {
    if (this.draining) return;
    this.draining = true;
    try {
      for (let batch = this.take(); batch && !this.closed; batch = this.take()) {
        await this.run(batch);
      }
    } catch {
      this.closed = true; // a protocol violation, or PGlite failed
      this.socket.destroy();
    }
    // Still marked draining: a close event meanwhile cannot start a second cleanup.
    if (this.closed) await this.abandon();
    this.draining = false;
  }

  /** The next whole startup packet, or every whole message buffered up to a Terminate. */
  private take(): Batch | undefined {
    const buf = this.buffer;
    if (!this.started) {
      if (buf.length < 8) return undefined;
      const length = buf.readInt32BE(0);
      if (length < 8 || length > MAX_STARTUP_LENGTH) throw new Error('bad startup packet');
      if (buf.length < length) return undefined;
      const code = buf.readInt32BE(4);
      const message = this.cut(length);
      if (code === SSL_REQUEST || code === GSSENC_REQUEST) return { kind: 'refuse-encryption' };
      if (code === CANCEL_REQUEST) return { kind: 'cancel' };
      return { kind: 'startup', message };
    }
    let end = 0;
    let last = 0;
    while (buf.length >= end + 5) {
      const size = 1 + buf.readInt32BE(end + 1);
      if (size < 5) throw new Error('bad message length');
      if (buf.length < end + size) break;
      if (buf[end] === TERMINATE) {
        if (end > 0) break;
        this.cut(size);
        return { kind: 'terminate' };
      }
      last = buf[end];
      end += size;
    }
    if (end === 0) return undefined;
    return { kind: 'messages', message: this.cut(end), endsUnit: last === SYNC || last === QUERY };
  }

  private cut(length: number): Uint8Array {
    const head = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return new Uint8Array(head);
  }

  private async run(batch: Batch): Promise<void> {
    if (batch.kind === 'refuse-encryption') return void this.socket.write('N');
    if (batch.kind === 'cancel' || batch.kind === 'terminate') {
      // Cancelling is not supported (PGlite runs one statement to its end anyway).
      this.closed = true;
      return void this.socket.end();
    }
    if (!(await this.gate.enter(this))) return;
    this.holding = true;
    if (this.closed) return; // abandon() releases it
    const ready = await this.exec(batch.message, (data) => this.socket.write(data));
    // Idle again: the unit ended (Sync or simple Query), PostgreSQL said ReadyForQuery (not in
    // the middle of a COPY), outside a transaction block. Then, and only then, others may go.
    const idle =
      batch.kind === 'startup' || (batch.endsUnit && ready && !this.db.isInTransaction());
    if (batch.kind === 'startup') this.started = true;
    if (idle) {
      this.holding = false;
      this.gate.leave(this);
    }
  }

  /** Runs raw protocol bytes; true when the reply ended with ReadyForQuery. */
  private async exec(message: Uint8Array, send?: (data: Buffer) => void): Promise<boolean> {
    let tail = Buffer.alloc(0);
    await this.db.runExclusive(() =>
      this.db.execProtocolRawStream(message, {
        onRawData: (view) => {
          // A view into PGlite's memory, reused by the next reply: copy it.
          const data = Buffer.from(view);
          if (send && !this.closed) send(data);
          tail = Buffer.concat([tail, data.subarray(-6)]).subarray(-6);
        },
      }),
    );
    return tail.length === 6 && tail[0] === READY_FOR_QUERY && tail.readInt32BE(1) === 5;
  }

  /**
   * The client went away. If it held PGlite, undo what it left open, as PostgreSQL does when a
   * backend's client disconnects: a ROLLBACK (ignored while an extended-protocol error waits for
   * its Sync), a Sync to end that wait, and a ROLLBACK for a transaction block still open.
   */
  private async abandon(): Promise<void> {
    this.gate.cancel(this);
    if (this.holding) {
      this.holding = false;
      try {
        await this.exec(ROLLBACK);
        await this.exec(SYNC_MESSAGE);
        if (this.db.isInTransaction()) await this.exec(ROLLBACK);
      } catch {
        // PGlite closing: nothing left to clean.
      } finally {
        this.gate.leave(this);
      }
    }
    this.done();
  }
}

/**
 * PGlite served to `pg` clients on a Unix socket, one connection at a time: a connection holds
 * PGlite from the first message of a unit of work until it is idle again, others wait their turn.
 */
export class EmbeddedSocketServer {
  private readonly gate = new Gate<Connection>();
  private readonly connections = new Map<Socket, Connection>();
  private server?: Server;

  constructor(private readonly db: PGlite) {}

  async listen(path: string): Promise<void> {
    const server = createServer((socket) => {
      const connection = new Connection(socket, this.db, this.gate);
      this.connections.set(socket, connection);
      // Kept until its cleanup is done, so close() waits for a rollback under way.
      void connection.gone.then(() => this.connections.delete(socket));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.server = server;
  }

  /** Stops listening, drops every connection and waits until what they held is rolled back. */
  async close(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    const gone = [...this.connections].map(([socket, connection]) => {
      socket.destroy();
      return connection.gone;
    });
    await Promise.all([closed, ...gone]);
  }
}
