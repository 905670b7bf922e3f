import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/** What a browser renders as a document: the plans pages and their assets, and the API docs. */
const PAGE_PREFIXES = ['/plans', '/api/docs'];

type Middleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void;

/**
 * Security headers, from helmet. Pages get helmet's defaults (a strict CSP, HSTS, nosniff, frame,
 * referrer and cross-origin policies). JSON responses get the API set of OWASP's REST Security
 * Cheat Sheet: nothing in them is rendered, so a document CSP protects nothing there, and each
 * header is paid for on every response (docs/development.md). Helmet works its headers out once,
 * when the middleware is made.
 */
export function securityHeaders(): Middleware {
  const page = helmet();
  // A route that may be cached says so itself (its own Cache-Control, set later, wins).
  const api: [string, string][] = [
    ['Cache-Control', 'no-store'],
    ...constantHeaders(helmet(API_OPTIONS)),
  ];
  return (req, res, next) => {
    if (PAGE_PREFIXES.some((p) => (req.url ?? '').startsWith(p))) return page(req, res, next);
    for (const [name, value] of api) res.setHeader(name, value);
    next();
  };
}

/**
 * The headers a helmet middleware sets on every response, read once at boot by running it on a
 * recording response: the API set never varies by request, and helmet's chain of six middlewares
 * per response was a measurable part of a cheap request (docs/development.md).
 */
function constantHeaders(middleware: Middleware): [string, string][] {
  const set: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: string) => set.push([name, value]),
    removeHeader: (name: string) => {
      throw new Error(`helmet would remove ${name} on every response; set it off in API_OPTIONS`);
    },
  } as unknown as ServerResponse;
  let done = false;
  middleware({ headers: {} } as IncomingMessage, recorder, (err?: unknown) => {
    if (err) throw err instanceof Error ? err : new Error('helmet refused its options');
    done = true;
  });
  // Helmet's middlewares are synchronous; anything else would not be constant.
  if (!done) throw new Error('the security headers middleware did not finish synchronously');
  return set;
}

/** For JSON: no rendering, framing, sniffing or referrer, HTTPS only (and not stored, above). */
const API_OPTIONS: Parameters<typeof helmet>[0] = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  },
  xFrameOptions: { action: 'deny' },
  referrerPolicy: { policy: 'no-referrer' },
  xContentTypeOptions: true,
  strictTransportSecurity: true,
  crossOriginEmbedderPolicy: false,
  crossOriginOpenerPolicy: false,
  crossOriginResourcePolicy: false,
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
  // Not removed on every response: Express never sets it here (createHttpAdapter disables it).
  xPoweredBy: false,
};
