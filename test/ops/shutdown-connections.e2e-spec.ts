import { connect, Socket } from 'node:net';
import { jsonLines, ServerProcess, spawnServer } from '../support/server-process';

/**
 * SIGTERM with connections that carry no finished request (docs/operations.md, shutdown): a
 * silent TCP connection, an idle keep-alive one and a request whose body stops half-way must not
 * hold the process until SHUTDOWN_TIMEOUT_SECONDS (which would exit 1).
 */
jest.setTimeout(120_000);

/** Slow-client limits far past the shutdown deadline: only the shutdown can end these. */
const PATIENT = {
  SHUTDOWN_TIMEOUT_SECONDS: '20',
  HTTP_HEADERS_TIMEOUT_SECONDS: '120',
  HTTP_REQUEST_TIMEOUT_SECONDS: '120',
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '120',
};

interface Held {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
}

/** A connection that writes `payload` (maybe nothing) and then stays open as long as the server lets it. */
function hold(url: string, payload: string): Promise<Held> {
  const { port } = new URL(url);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
    // The server's FIN: this side stays half-open (a hostile client never closes its own).
    const closed = new Promise<void>((r) => {
      socket.once('end', () => r());
      socket.once('close', () => r());
    });
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.once('error', reject);
    socket.once('connect', () => {
      if (payload) socket.write(payload);
      resolve({ socket, closed, received: () => Buffer.concat(chunks).toString('utf8') });
    });
  });
}

describe('shutdown with connections that carry no finished request', () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.cleanup();
    server = undefined;
  });

  it('closes silent, idle and half-sent connections, answers the half-sent one 503, and exits 0', async () => {
    server = await spawnServer(PATIENT);
    const s = server;
    const silent = await hold(s.url, '');
    const keepAlive = await hold(s.url, 'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
    const halfSent = await hold(
      s.url,
      'POST /api/lease/checkout HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\n\r\n{',
    );
    // The keep-alive one has its answer and is idle; the half-sent one gets a moment to reach
    // the app (the drain line below shows it did).
    await new Promise<void>((r) => keepAlive.socket.once('data', () => r()));
    await new Promise((r) => setTimeout(r, 500));

    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    await Promise.all([silent.closed, keepAlive.closed, halfSent.closed]);
    expect(halfSent.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(halfSent.received()).toMatch(/connection: close/i);
    expect(halfSent.received()).toMatch(/"code":"unavailable"/);
    expect(silent.received()).toBe('');
    expect(s.lines.join('\n')).toMatch(/draining, health answers 503; 1 request\(s\) in flight/);
    expect(s.lines.join('\n')).toMatch(/answered 503 to 1 request\(s\) whose body had not arrived/);
    const stopped = jsonLines(s.lines).find((l) => /stopped cleanly/.test(String(l.msg)));
    expect(stopped).toMatchObject({ context: 'Shutdown' });
  });
});
