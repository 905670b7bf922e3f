import type { Step } from './middleware-chain';
import { protohostOf } from './http-request';

/**
 * `handler` under a path prefix, as `app.use(prefix, handler)` mounts it (Express's router,
 * `trimPrefix`): it runs only for the prefix itself or a path below it (case-sensitive, matched on
 * the raw path), sees the path without the prefix in `req.url` and the prefix in `req.baseUrl`, and
 * both are put back when it hands on. A step of the front chain (middleware-chain.ts), so a request
 * elsewhere pays a string comparison, not a router layer. `prefix` has no trailing slash.
 */
export function mountedAt(prefix: string, handler: Step): Step {
  return (req, res, next) => {
    const url = req.url;
    const protohost = protohostOf(url);
    const rest = url.slice(protohost.length + prefix.length);
    if (!url.startsWith(prefix, protohost.length) || !endsSegment(rest)) return next();
    const baseUrl = req.baseUrl;
    req.url = protohost + (protohost || rest.startsWith('/') ? rest : `/${rest}`);
    req.baseUrl = baseUrl + prefix;
    const restore = (): void => {
      req.url = url;
      req.baseUrl = baseUrl;
    };
    try {
      handler(req, res, (err?: unknown) => {
        restore();
        next(err);
      });
    } catch (thrown) {
      // The error handler sees the request as it came, as after Express's own mount.
      restore();
      throw thrown;
    }
  };
}

/** The prefix ends on a segment: nothing, a slash, or the query follows it. */
function endsSegment(rest: string): boolean {
  return rest === '' || rest[0] === '/' || rest[0] === '?';
}
