import type { IncomingMessage, ServerResponse } from 'node:http';

type Middleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void;

const ALLOW_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].join(',');
const ALLOW_HEADERS = ['Content-Type', 'Authorization', 'X-Request-Id'].join(',');
const EXPOSE_HEADERS = ['X-Request-Id', 'Retry-After'].join(',');
const MAX_AGE_SECONDS = '600';

/**
 * CORS for the listed origins, credentials allowed: the headers the `cors` package sent with our
 * options (an origin list, credentials only for a listed origin), with every value made at boot.
 * `cors` merged its options and joined its header lists on every request, and a browser's
 * same-origin request and every non-browser client send no `Origin`: those now get only
 * `Vary: Origin`, so a cache keeps their answer apart from a cross-origin one
 * (`Access-Control-Expose-Headers` meant nothing there: it is read only on CORS responses).
 * A preflight (any OPTIONS) is answered here, 204, as `cors` did.
 */
export function corsHeaders(allowedOrigins: readonly string[]): Middleware {
  const listed = new Set(allowedOrigins);
  return (req, res, next) => {
    const origin = req.headers.origin;
    const preflight = req.method === 'OPTIONS';
    if (origin === undefined && !preflight) {
      varyOrigin(res);
      return next();
    }
    // `cors` sends the header to any origin; credentials only go with a listed one.
    if (origin !== undefined && listed.has(origin)) {
      res.setHeader('Access-Control-Allow-Origin', origin);
      varyOrigin(res);
      res.setHeader('Access-Control-Allow-Credentials', 'true');
    } else {
      varyOrigin(res);
    }
    if (!preflight) {
      res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
      return next();
    }
    res.setHeader('Access-Control-Allow-Methods', ALLOW_METHODS);
    res.setHeader('Access-Control-Allow-Headers', ALLOW_HEADERS);
    res.setHeader('Access-Control-Max-Age', MAX_AGE_SECONDS);
    res.setHeader('Access-Control-Expose-Headers', EXPOSE_HEADERS);
    // Some browsers wait for a body on a 204 without a length.
    res.statusCode = 204;
    res.setHeader('Content-Length', '0');
    res.end();
  };
}

/** Adds `Origin` to `Vary` as the `vary` package does (nothing earlier sets it today). */
function varyOrigin(res: ServerResponse): void {
  const current = res.getHeader('Vary');
  if (current === undefined) {
    res.setHeader('Vary', 'Origin');
    return;
  }
  const value = Array.isArray(current) ? current.join(', ') : String(current);
  const names = value.split(',').map((name) => name.trim().toLowerCase());
  if (!names.includes('*') && !names.includes('origin')) {
    res.setHeader('Vary', value ? `${value}, Origin` : 'Origin');
  }
}
