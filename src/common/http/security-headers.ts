import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/** What a browser renders as a document: the plans pages and their assets, and the API docs. */
const PAGE_PREFIXES = ['/plans', '/api/docs'];
/** The operators' console and its assets (console-pages/). */
const CONSOLE_PREFIX = '/console';

export interface SecurityHeaderOptions {
  /**
   * Where the console's script may connect besides its own origin: the identity provider, whose
   * discovery document and token endpoint the browser's OIDC client fetches. Origins or URLs.
   */
  consoleConnectSrc: readonly string[];
}

type Middleware = (
  req: IncomingMessage,
  res: ServerResponse,
  next: (err?: unknown) => void,
) => void;

/**
 * Security headers, from helmet mounted as middleware. Pages get helmet's defaults (a strict CSP,
 * HSTS, nosniff, frame, referrer and cross-origin policies). JSON responses get the API set of
 * OWASP's REST Security Cheat Sheet: nothing in them is rendered, so a document CSP protects
 * nothing there, and each header is paid for on every response (docs/development.md). Helmet works
 * its header values out once, when each middleware is made.
 */
export function securityHeaders(options: SecurityHeaderOptions): Middleware {
  const page = helmet();
  const consolePage = helmet(consoleOptions(options.consoleConnectSrc));
  const api = helmet(API_OPTIONS);
  return (req, res, next) => {
    const url = req.url ?? '';
    if (url === CONSOLE_PREFIX || url.startsWith(`${CONSOLE_PREFIX}/`))
      return consolePage(req, res, next);
    if (PAGE_PREFIXES.some((p) => url.startsWith(p))) return page(req, res, next);
    // A route that may be cached says so itself (its own Cache-Control, set later, wins).
    res.setHeader('Cache-Control', 'no-store');
    api(req, res, next);
  };
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

/** An origin, from an issuer URL: a CSP source names origins (and a bad value names nothing). */
function originOf(url: string): string[] {
  try {
    return [new URL(url).origin];
  } catch {
    return [];
  }
}

/**
 * The console's pages: helmet's defaults, with contract section 11's policy. Scripts only from
 * the service's own files (no inline script, no eval), calls only to the service and the identity
 * provider, never framed; its popups (none today) may keep their opener.
 */
function consoleOptions(connectSrc: readonly string[]): Parameters<typeof helmet>[0] {
  return {
    contentSecurityPolicy: {
      useDefaults: true,
      directives: {
        scriptSrc: ["'self'"],
        styleSrc: ["'self'"],
        connectSrc: ["'self'", ...connectSrc.flatMap(originOf)],
        frameAncestors: ["'none'"],
        objectSrc: ["'none'"],
        formAction: ["'self'"],
      },
    },
    xFrameOptions: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
  };
}
