import { statSync } from 'node:fs';
import { connect as netConnect, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Pool } from 'pg';
import { SOCKET_FILE } from './embedded-postgres.files';
import { EmbeddedPostgresServer } from './embedded-postgres.server';

/** One frontend message: a type byte, then the length and the body. */
function message(type: string, ...parts: (string | number | Buffer)[]): Buffer {
  const body = Buffer.concat(
    parts.map((p) => {
      if (Buffer.isBuffer(p)) return p;
      if (typeof p === 'string') return Buffer.from(`${p}\0`);
      const b = Buffer.alloc(2);
      b.writeInt16BE(p);
      return b;
    }),
  );
  const head = Buffer.alloc(5);
  head.write(type);
  head.writeInt32BE(4 + body.length, 1);
  return Buffer.concat([head, body]);
}
const int32 = (n: number) => Buffer.from([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
/** Bind: unnamed portal and statement, no format codes, one text parameter, text results. */
const bind = (value: string) =>
  message('B', '', '', 0, 1, int32(Buffer.byteLength(value)), Buffer.from(value), 0);

/**
 * A client speaking the protocol by hand, so a test can send half of an extended query, let
 * another client go, then send the rest: the interleaving that pglite-socket let through.
 */
class RawClient {
  private buffer = Buffer.alloc(0);
  private wake?: () => void;

  private constructor(private readonly socket: Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, chunk]);
      this.wake?.();
    });
  }

  static async connect(socketDir: string): Promise<RawClient> {
    const socket = netConnect(join(socketDir, SOCKET_FILE));
    await new Promise((resolve, reject) => socket.once('connect', resolve).once('error', reject));
    const client = new RawClient(socket);
    const params = Buffer.from('user\0postgres\0database\0postgres\0\0');
    socket.write(Buffer.concat([int32(8 + params.length), int32(196608), params]));
    await client.untilReady();
    return client;
  }

  send(...messages: Buffer[]): void {
    this.socket.write(Buffer.concat(messages));
  }

  /** The first column of each DataRow, and each error's message, up to ReadyForQuery. */
  async untilReady(): Promise<{ values: string[]; errors: string[] }> {
    const values: string[] = [];
    const errors: string[] = [];
    for (;;) {
      while (this.buffer.length < 5 || this.buffer.length < 1 + this.buffer.readInt32BE(1)) {
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
      const type = String.fromCharCode(this.buffer[0]);
      const body = this.buffer.subarray(5, 1 + this.buffer.readInt32BE(1));
      this.buffer = this.buffer.subarray(1 + this.buffer.readInt32BE(1));
      if (type === 'Z') return { values, errors };
      if (type === 'D') values.push(body.subarray(6, 6 + body.readInt32BE(2)).toString());
      if (type === 'E') errors.push(/M([^\0]*)/.exec(body.toString())?.[1] ?? '');
    }
  }

  end(): void {
    this.socket.end(message('X'));
  }
}

/** Cuts a client's socket without a Terminate message, as a crashed process would. */
function dropSocket(client: Client): void {
  (client as unknown as { connection: { stream: Socket } }).connection.stream.destroy();
}

/**
 * The gated socket server, on the shipped component: PGlite in memory in its worker thread (PGlite
 * cannot load inside Jest's module registry), reached by raw `pg` clients on the Unix socket.
 */
describe('EmbeddedSocketServer: one connection at a time', () => {
  const server = new EmbeddedPostgresServer('memory://');
  let url: string;
  const clients: Client[] = [];

  const connect = async (): Promise<Client> => {
    const client = new Client({ connectionString: url });
    client.on('error', () => undefined); // a test closes some on purpose
    await client.connect();
    clients.push(client);
    return client;
  };

  beforeAll(async () => {
    url = await server.start();
    const setup = await connect();
    await setup.query('CREATE TABLE account (id text PRIMARY KEY, balance int NOT NULL)');
  }, 60_000);
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.end().catch(() => undefined)));
    await server.stop();
  });

  it('serves memory:// from a private temporary directory', () => {
    expect(server.socketDir).toMatch(new RegExp(`^${tmpdir()}/pglite-`));
    expect(statSync(server.socketDir!).mode & 0o777).toBe(0o700);
  });

  it('gives each client the answers to its own prepared statements', async () => {
    const [a, b] = await Promise.all([connect(), connect()]);
    const big = 'x'.repeat(200_000); // spans several socket reads
    // Each client one query at a time, as pg wants; the two clients' messages interleave.
    const runA = async () => {
      let wrong = 0;
      for (let i = 0; i < 100; i++) {
        const { rows } = await a.query<{ v: number }>('SELECT $1::int + 1000 AS v', [i]);
        if (rows[0].v !== i + 1000) wrong++;
      }
      return wrong;
    };
    const runB = async () => {
      let wrong = 0;
      for (let i = 0; i < 100; i++) {
        const text = i % 10 === 0 ? big : `b${i}`;
        const { rows } = await b.query<{ v: string }>("SELECT $1::text || '!' AS v", [text]);
        if (rows[0].v !== `${text}!`) wrong++;
      }
      return wrong;
    };
    expect(await Promise.all([runA(), runB()])).toEqual([0, 0]);
  });

  it('keeps an extended query whole while another client runs between its messages', async () => {
    const [raw, other] = await Promise.all([RawClient.connect(server.socketDir!), connect()]);
    try {
      // Parse and Bind only: the unnamed statement and portal now belong to this unit of work.
      raw.send(message('P', '', 'SELECT $1::int + 1000', 0), bind('7'));
      const between = other.query<{ v: string }>("SELECT $1::text || '!' AS v", ['other']);
      await new Promise((resolve) => setTimeout(resolve, 50)); // room for it to cut in
      raw.send(message('D', Buffer.from('P'), ''), message('E', '', int32(0)), message('S'));
      expect(await raw.untilReady()).toEqual({ values: ['1007'], errors: [] });
      expect((await between).rows).toEqual([{ v: 'other!' }]);
    } finally {
      raw.end();
    }
  });

  it('lets two transactions at once each see only their own work, one after the other', async () => {
    const [a, b] = await Promise.all([connect(), connect()]);
    await a.query("INSERT INTO account VALUES ('t1', 100), ('t2', 100)");
    const order: string[] = [];
    await a.query('BEGIN');
    await a.query("UPDATE account SET balance = balance - 30 WHERE id = 't1'");
    const second = (async () => {
      await b.query('BEGIN');
      order.push('b began');
      const { rows } = await b.query<{ balance: number }>(
        "SELECT balance FROM account WHERE id = 't1'",
      );
      await b.query("UPDATE account SET balance = balance + 5 WHERE id = 't2'");
      await b.query('COMMIT');
      return rows[0].balance;
    })();
    const { rows } = await a.query<{ balance: number }>(
      "SELECT balance FROM account WHERE id = 't1'",
    );
    await a.query("UPDATE account SET balance = balance + 30 WHERE id = 't2'");
    await a.query('COMMIT');
    order.push('a committed');
    expect(rows[0].balance).toBe(70);
    // b's BEGIN waited for a's COMMIT, so b read the committed balance, not a's half-done work.
    expect(await second).toBe(70);
    expect(order).toEqual(['a committed', 'b began']);
    const after = await a.query<{ id: string; balance: number }>(
      "SELECT id, balance FROM account WHERE id IN ('t1', 't2') ORDER BY id",
    );
    expect(after.rows).toEqual([
      { id: 't1', balance: 70 },
      { id: 't2', balance: 135 },
    ]);
  });

  it('keeps the money right under many concurrent transfers through a pool', async () => {
    const pool = new Pool({ connectionString: url, max: 8 });
    try {
      const ids = ['p0', 'p1', 'p2', 'p3'];
      await pool.query(`INSERT INTO account SELECT unnest($1::text[]), 1000`, [ids]);
      const transfer = async (i: number) => {
        const client = await pool.connect();
        try {
          const [from, to] = [ids[i % 4], ids[(i + 1) % 4]];
          await client.query('BEGIN');
          const before = await client.query<{ balance: number }>(
            'SELECT balance FROM account WHERE id = $1',
            [from],
          );
          await client.query('UPDATE account SET balance = balance - 7 WHERE id = $1', [from]);
          const after = await client.query<{ balance: number }>(
            'SELECT balance FROM account WHERE id = $1',
            [from],
          );
          await client.query('UPDATE account SET balance = balance + 7 WHERE id = $1', [to]);
          await client.query('COMMIT');
          return after.rows[0].balance === before.rows[0].balance - 7;
        } finally {
          client.release();
        }
      };
      const results = await Promise.all(Array.from({ length: 200 }, (_, i) => transfer(i)));
      expect(results.every(Boolean)).toBe(true);
      const { rows } = await pool.query<{ total: string }>(
        'SELECT sum(balance) AS total FROM account WHERE id = ANY($1)',
        [ids],
      );
      expect(Number(rows[0].total)).toBe(4000);
    } finally {
      await pool.end();
    }
  });

  it('holds a failed transaction until its ROLLBACK', async () => {
    const [a, b] = await Promise.all([connect(), connect()]);
    await a.query('BEGIN');
    await a.query("INSERT INTO account VALUES ('f1', 1)");
    await expect(a.query('SELECT 1 / 0')).rejects.toThrow(/division by zero/);
    const other = b.query<{ n: string }>("SELECT count(*) AS n FROM account WHERE id = 'f1'");
    await a.query('ROLLBACK');
    expect((await other).rows[0].n).toBe('0');
  });

  it.each([
    ['ends (Terminate)', (c: Client) => c.end()],
    ['drops its socket', (c: Client) => Promise.resolve(dropSocket(c))],
  ])('rolls back and lets others in when a client in a transaction %s', async (_, close) => {
    const [a, b] = await Promise.all([connect(), connect()]);
    const id = `gone-${clients.length}`;
    await a.query('BEGIN');
    await a.query('INSERT INTO account VALUES ($1, 1)', [id]);
    const other = b.query<{ n: string }>('SELECT count(*) AS n FROM account WHERE id = $1', [id]);
    await close(a);
    expect((await other).rows[0].n).toBe('0');
    const again = await b.query<{ n: string }>('SELECT 1 AS n');
    expect(again.rows).toEqual([{ n: 1 }]);
  });
});
