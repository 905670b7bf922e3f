import { performance } from 'node:perf_hooks';
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

/** The two metrics' children for one method, route pattern and status. */
interface Series {
  duration: { observe: (seconds: number) => void };
  count: { inc: () => void };
}

/**
 * Counts and times every answered request by method, route pattern and status. Each series'
 * labelled children are made once and kept (as many as the series themselves, which the labels
 * already bound): prom-client's `startTimer` and a labels object per call made four objects and two
 * closures per request, and checked the label names against the metric's on every observation.
 */
export function httpMetrics() {
  const series = new Map<string, Series>();
  const seriesOf = (method: string, route: string, status: string): Series => {
    const key = `${method} ${status} ${route}`;
    let found = series.get(key);
    if (found === undefined) {
      found = {
        duration: httpRequestDuration.labels(method, route, status),
        count: httpRequests.labels(method, route, status),
      };
      series.set(key, found);
    }
    return found;
  };
  return (req: Request, res: Response, next: NextFunction): void => {
    if (MONITORING_PATHS.has(req.path)) return next();
    const start = performance.now();
    res.once('close', () => {
      const status = res.statusCode;
      const one = seriesOf(req.method, routeLabel(req, status), String(status));
      one.duration.observe((performance.now() - start) / 1000);
      one.count.inc();
    });
    next();
  };
}
