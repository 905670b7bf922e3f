import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/**
 * Helmet's defaults (a strict CSP, HSTS, nosniff, frame and referrer policies), worked out once:
 * with no per-request CSP nonces they are the same for every response. @fastify/helmet builds a
 * helmet middleware and re-parses the CSP on every request, which showed in the profile.
 */
export function registerSecurityHeaders(fastify: FastifyInstance): void {
  const headers = helmetHeaders();
  fastify.addHook('onRequest', (request, reply, done) => {
    // The request id as well (see request-logging.ts): every response echoes it.
    void reply.headers(headers).header('X-Request-Id', request.id);
    done();
  });
}

/** The headers helmet's middleware sets, read off a response stand-in. */
export function helmetHeaders(): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number) =>
      (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  let failure: unknown;
  // Synchronous: helmet calls next() before returning when no option needs the request.
  helmet()(
    {} as IncomingMessage,
    res as unknown as ServerResponse,
    (err?: unknown) => (failure = err),
  );
  if (failure) throw failure instanceof Error ? failure : new Error(String(failure));
  return headers;
}
