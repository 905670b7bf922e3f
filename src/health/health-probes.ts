import type { Request, Response } from 'express';
import { ErrorCode } from '../common/errors/error-code.enum';
import { problem, PROBLEM_CONTENT_TYPE } from '../common/errors/problem-details';
import { Drain } from '../common/lifecycle/drain';
import { HEALTH_LIVE_PATH, HEALTH_PATH } from '../common/http/probe-paths';
import { requestId } from '../common/logging/logger.options';
import type { Step } from '../common/http/middleware-chain';
import { HealthService } from './health.service';
import { pathOf } from '../common/http/http-request';

/**
 * `GET /health` and `GET /health/live`, answered by the front chain's first step: a balancer asks
 * every few seconds, and the rest (access log, CORS, static files, body parsing, Nest's
 * router, guards and pipes) did nothing for them but cost (bench/findings.md). They carry what the
 * rest gave them: the request id, the API's security headers (`headers`, the chain's own
 * step, synchronous for these paths), no access line, counted by the drain so a readiness
 * ping in flight holds the shutdown. HealthController has the same routes, for the API document
 * and for what this leaves to it: another method, and a browser's request (an `Origin`), which
 * wants CORS.
 */
export function healthProbes(
  health: HealthService,
  drain: Drain,
  headers: (req: Request, res: Response, next: () => void) => void,
): Step {
  const none = (): void => undefined;
  return (req, res, next) => {
    if ((req.method !== 'GET' && req.method !== 'HEAD') || req.headers.origin !== undefined) {
      return next();
    }
    const path = pathOf(req.url ?? '');
    if (path === HEALTH_LIVE_PATH) {
      prepare(req, res);
      return send(res, 200, LIVE);
    }
    if (path !== HEALTH_PATH) return next();
    prepare(req, res);
    drain.track(req, res);
    health.check(req.headers.authorization).then(
      (report) => send(res, report.status === 'ok' ? 200 : 503, JSON.stringify(report)),
      // check() does not fail (a failed ping is a report); if it ever did, the chain's 500.
      () => send(res, 500, INTERNAL, PROBLEM_CONTENT_TYPE),
    );
  };

  function prepare(req: Request, res: Response): void {
    requestId(req, res);
    headers(req, res, none);
    if (drain.draining) res.setHeader('Connection', 'close');
  }
}

const JSON_TYPE = 'application/json; charset=utf-8';
const LIVE = JSON.stringify({ status: 'ok' });
const INTERNAL = JSON.stringify(problem(500, ErrorCode.InternalError, 'Internal server error.'));

function send(res: Response, status: number, body: string, type = JSON_TYPE): void {
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(body);
}
