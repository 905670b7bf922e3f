import type { NextFunction, Request, Response } from 'express';
import { httpRequestDuration, httpRequests } from './metrics';
import { MONITORING_PATHS } from '../http/probe-paths';

/**
 * The route a request matched, as its pattern (`/api/v1/devices/:device_id`), never the raw
 * path: ids in labels would make a new series per id. Unrouted answers (404s, static files) share
 * one label each, so a scan of random paths adds no series.
 */
export function routeLabel(req: Request, status: number): string {
  const route = req.route as { path?: unknown } | undefined;
  // A wildcard (`{/*splat}`, `/{*path}`) is the framework's catch-all that answers 404s and 405s;
  // no route of ours has one.
  if (typeof route?.path === 'string' && !route.path.includes('*')) {
    return `${req.baseUrl}${route.path}`;
  }
  if (req.path.startsWith('/plans/assets/')) return '/plans/assets/*';
  return status === 404 ? 'unmatched' : 'unrouted';
}

/** Counts and times every answered request by method, route pattern and status. */
export function httpMetrics() {
  return (req: Request, res: Response, next: NextFunction): void => {
    if (MONITORING_PATHS.has(req.path)) return next();
    const end = httpRequestDuration.startTimer();
    res.once('close', () => {
      const labels = {
        method: req.method,
        route: routeLabel(req, res.statusCode),
        status: String(res.statusCode),
      };
      end(labels);
      httpRequests.inc(labels);
    });
    next();
  };
}
