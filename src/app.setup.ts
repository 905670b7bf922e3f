import { join } from 'node:path';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { Logger, Params, PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
import { bodyParsers } from './common/http/body-parsers';
import { middlewareChain, Step } from './common/http/middleware-chain';
import { mountedAt } from './common/http/mounted-at';
import { corsHeaders } from './common/http/cors';
import { rejectMalformedPath } from './common/http/path-encoding';
import { securityHeaders } from './common/http/security-headers';
import { applyServerLimits } from './common/http/server-limits';
import { Drain } from './common/lifecycle/drain';
import { RequestPinoLogger, requestContext } from './common/logging/request-context';
import { accessLog } from './common/logging/logger.options';
import { httpMetrics } from './common/metrics/http-metrics.middleware';
import { apiDocs } from './common/openapi/api-docs.middleware';
import { AppConfig } from './config/app-config';
import { healthProbes } from './health/health-probes';
import { HealthService } from './health/health.service';
import { WEBHOOK_PATH } from './processor-webhook/processor-webhook.controller';

/**
 * The HTTP server: Express 5. Its router reads the routing settings when it is made, which is
 * when the adapter is constructed, so they are set here, before Nest sees the instance:
 * - strict and case-sensitive routing: one spelling per route; `/health/` or `/HEALTH` is 404,
 *   never a second way in that would slip past path-based rules (the access-log filter, the
 *   webhook's raw body);
 * - `trust proxy` from TRUST_PROXY (a hop count or subnets, never `true`), for `req.ip`;
 * - no `X-Powered-By`, and no ETag: JSON answers carry a session's data and are `no-store`
 *   (static assets keep theirs, from serve-static).
 */
export function createHttpAdapter(config: AppConfig): ExpressAdapter {
  const instance = express();
  instance.set('strict routing', true);
  instance.set('case sensitive routing', true);
  instance.set('trust proxy', config.trustProxy);
  instance.disable('x-powered-by');
  instance.set('etag', false);
  return new ExpressAdapter(instance);
}

/**
 * Everything about the HTTP layer that is not a route: used by main.ts and by the e2e tests, so
 * the tests exercise the same stack as production. The app must be made with createHttpAdapter
 * and `bodyParser: false`. The request's front is one Express middleware whose steps run in the
 * order listed here, before the routes (middleware-chain.ts says why one).
 */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const config = app.get(AppConfig);
  const params = app.get<Params>(PARAMS_PROVIDER_TOKEN);
  // nestjs-pino's Logger, its lines in a request on that request's logger (request-context.ts).
  app.useLogger(new Logger(new RequestPinoLogger(params), params));
  applyServerLimits(app.getHttpServer(), config.httpTimeouts);
  app.use(middlewareChain(frontSteps(app, config, params)));
  return app;
}

function frontSteps(app: NestExpressApplication, config: AppConfig, params: Params): Step[] {
  const drain = app.get(Drain);
  const headers = securityHeaders();
  return [
    // The balancer's probes answered before the rest, which does nothing for them but cost.
    healthProbes(app.get(HealthService), drain, headers),
    // First after them, so every other request leaves one access line, however it ends.
    accessLog(params),
    ...(config.metricsEnabled ? [httpMetrics()] : []),
    // On SIGTERM: counts what is in flight, refuses what is new (graceful-shutdown.ts).
    drain.gate(),
    // The rest of the request runs in its context: its application and audit lines.
    requestContext(),
    headers,
    rejectMalformedPath(),
    // Headers made at boot (cors.ts). No cookie parser: the session cookie is read where it is used.
    corsHeaders(config.corsOrigins),
    // The plans page's script and styles; served from dist/ next to the compiled module. A
    // directory (`/plans/assets/`) is not served and falls through to the 404 of the routes.
    mountedAt(
      '/plans/assets',
      express.static(join(__dirname, 'plans', 'public'), {
        maxAge: '5m',
        index: false,
        redirect: false,
      }),
    ),
    // The webhook gets its exact bytes (the signature covers them), up to the larger raw limit.
    bodyParsers([WEBHOOK_PATH]),
    // The API docs (Swagger UI, /api/docs-json): set up on their first request, not at boot.
    apiDocs(app, config),
  ];
}
