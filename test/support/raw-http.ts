import { connect } from 'node:net';
import type { TestApp } from './test-app';

export interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** Milliseconds from connecting until the server closed its side of the connection. */
  closedAfterMs: number;
}

/** Makes the test app listen on a free port of 127.0.0.1 (once) and returns the port. */
export async function listeningPort(t: TestApp): Promise<number> {
  const server = t.app.getHttpServer();
  if (!server.listening) await t.app.listen(0, '127.0.0.1');
  const address = server.address();
  if (typeof address !== 'object' || address === null) throw new Error('not listening');
  return address.port;
}

/**
 * Writes `payload` as it is on a new connection (what supertest cannot: malformed framing, a
 * request that stops half-way) and reads until the server closes it, at most `withinMs`.
 */
export function rawRequest(port: number, payload: string, withinMs = 10_000): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    // A hostile client: it never closes its side, so only the server can end the exchange.
    const socket = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () =>
      socket.write(payload),
    );
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server kept the connection open for ${withinMs} ms`));
    }, withinMs);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined);
    const done = () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(parse(Buffer.concat(chunks).toString('utf8'), Date.now() - started));
    };
    // 'end': the server closed its side (it also destroys its socket once the answer is out).
    socket.once('end', done);
    socket.once('close', done);
  });
}

function parse(text: string, closedAfterMs: number): RawAnswer {
  const [head, ...rest] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) headers[line.slice(0, colon).toLowerCase()] = line.slice(colon + 1).trim();
  }
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1] ?? 0);
  return { status, headers, body: rest.join('\r\n\r\n'), closedAfterMs };
}
