import type { Server, ServerResponse } from 'node:http';
import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HttpServerTimeouts } from '../../config/app-config';
import { ErrorCode } from '../errors/error-code.enum';
import { PROBLEM_CONTENT_TYPE, problemOf } from '../errors/problem-details';

/** How often Node looks for connections over their time limit (its default is 30 s). */
const TIMEOUT_CHECK_MS = 1000;

/** The response a connection is answering now, if any (the drain keeps it: Drain.answering). */
export type AnsweringOn = (socket: Duplex) => Pick<ServerResponse, 'headersSent'> | undefined;

/**
 * Limits on the Node server itself, below any framework: slow clients are cut off (a connection
 * that trickles its headers or body is answered 408 and closed), and requests Node refuses
 * before any middleware sees them are answered as problem details rather than bare status lines.
 * Call before `listen` (the timeout check is armed on 'listening').
 */
export function applyServerLimits(
  server: Server,
  timeouts: HttpServerTimeouts,
  answering: AnsweringOn,
): void {
  server.headersTimeout = timeouts.headersMs;
  server.requestTimeout = timeouts.requestMs;
  server.keepAliveTimeout = timeouts.keepAliveMs;
  // A createServer() option that Nest does not pass; Node reads the property when the server
  // starts listening (the slow-client e2e test shows it took effect).
  (server as Server & { connectionsCheckingInterval: number }).connectionsCheckingInterval =
    TIMEOUT_CHECK_MS;
  server.on('clientError', (err: Error & { code?: string }, socket: Duplex) =>
    answerClientError(err, socket, answering(socket)),
  );
}

/** Node's own reasons for refusing a request, as our codes (and a detail where the table's is too general). */
function refusal(code: string | undefined): [ErrorCode, string?] {
  switch (code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [ErrorCode.RequestTimeout];
    case 'HPE_HEADER_OVERFLOW':
      return [ErrorCode.HeadersTooLarge];
    default:
      // Malformed framing: e.g. both Content-Length and Transfer-Encoding (request smuggling).
      return [ErrorCode.ValidationFailed, 'The request is not well-formed HTTP.'];
  }
}

/**
 * Replaces Node's default 'clientError' answer (a status line without a body) with problem
 * details, under the same rule: only if no response has begun on the socket.
 */
function answerClientError(
  err: Error & { code?: string },
  socket: Duplex,
  inFlight: Pick<ServerResponse, 'headersSent'> | undefined,
): void {
  if (err.code === 'ECONNRESET' || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const problem = problemOf(...refusal(err.code));
  const { status } = problem;
  const body = JSON.stringify(problem);
  const response =
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
    `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n' +
    body;
  // Closed once written, whether or not the client ever closes its side.
  socket.end(response, () => socket.destroy());
}
