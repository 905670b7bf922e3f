import type { IncomingHttpHeaders } from 'node:http';

/**
 * What guards, decorators and controllers read from a request, whatever the HTTP platform: they
 * take it from `ExecutionContext` typed as this, so only the platform's own setup knows Express.
 */
export interface HttpRequest {
  method: string;
  headers: IncomingHttpHeaders;
  /** The client address as the platform resolves it under TRUST_PROXY. */
  ip?: string;
  body?: unknown;
  /** The `Cookie` header parsed, on first read (readSessionCookie). */
  cookies?: Record<string, string | undefined>;
}

/** A request target without its query string (what routes and logs go by). */
export function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
