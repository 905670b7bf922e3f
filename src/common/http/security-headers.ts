import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';

/** What a browser renders as a document: the plans pages and their assets, and the API docs. */
const PAGE_PREFIXES = ['/plans', '/api/docs'];

/**
 * Security headers, worked out once (they do not vary by request) and set by one hook. Pages get
 * helmet's defaults (a strict CSP, HSTS, nosniff, frame, referrer and cross-origin policies). JSON
 * responses get the API set of OWASP's REST Security Cheat Sheet: nothing in them is rendered, so
 * a document CSP protects nothing there, and each header is paid for on every response
 * (bench/findings.md). @fastify/helmet was not used: it re-parses the CSP on every request.
 */
export function registerSecurityHeaders(fastify: FastifyInstance): void {
  const page = helmetHeaders();
  const api = apiHeaders(page);
  fastify.addHook('onRequest', (request, reply, done) => {
    const headers = PAGE_PREFIXES.some((p) => request.url.startsWith(p)) ? page : api;
    // The request id as well (Fastify's genReqId, also in the logs): every response echoes it.
    void reply.headers(headers).header('X-Request-Id', request.id);
    done();
  });
}

/** For JSON: no framing, no sniffing, no referrer, HTTPS only, and not stored by any cache. */
export function apiHeaders(page: Record<string, string>): Record<string, string> {
  return {
    'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
    'strict-transport-security': page['strict-transport-security'],
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
    'referrer-policy': 'no-referrer',
    // A route that may be cached says so itself (its own Cache-Control wins: it is set later).
    'cache-control': 'no-store',
  };
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
  if (failure) throw failure instanceof Error ? failure : new Error('helmet refused its defaults');
  return headers;
}
