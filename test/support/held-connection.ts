import { connect, Socket } from 'node:net';

/** Slow-client limits far past the shutdown deadline: only the shutdown can end these. */
export const PATIENT_CLIENTS = {
  SHUTDOWN_TIMEOUT_SECONDS: '20',
  HTTP_HEADERS_TIMEOUT_SECONDS: '120',
  HTTP_REQUEST_TIMEOUT_SECONDS: '120',
  HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '120',
};

/** Headers and one byte of a 100-byte body, then nothing. */
export const HALF_SENT_CHECKOUT =
  'POST /api/lease/checkout HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
  'Content-Length: 100\r\n\r\n{';

export interface Held {
  socket: Socket;
  received: () => string;
  closed: Promise<void>;
}

/** A connection that writes `payload` (maybe nothing) and then stays open as long as the server lets it. */
export function hold(url: string, payload: string): Promise<Held> {
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
