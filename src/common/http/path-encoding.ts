import type { IncomingMessage, ServerResponse } from 'node:http';
import { DomainError } from '../errors/domain.error';
import { ErrorCode } from '../errors/error-code.enum';
import { pathOf } from './http-request';

/**
 * A path that is not valid percent-encoding is 400, on every path and with a fixed detail. Left to
 * the router, it is a URIError only where a route has a parameter, which Nest turns into a 400
 * whose detail echoes the path; elsewhere it would be a 404 or a static file lookup.
 */
export function rejectMalformedPath() {
  return (req: IncomingMessage, _res: ServerResponse, next: (err?: unknown) => void): void => {
    const url = req.url ?? '/';
    // Most requests have no '%' at all: they pay one scan, no copy of the path.
    if (!url.includes('%')) return next();
    const path = pathOf(url);
    if (path.includes('%') && !decodes(path)) {
      return next(
        new DomainError(
          ErrorCode.ValidationFailed,
          'The request path is not valid percent-encoding.',
        ),
      );
    }
    next();
  };
}

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}
