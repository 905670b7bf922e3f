import { join } from 'node:path';
import { ExpressAdapter, NestExpressApplication } from '@nestjs/platform-express';
import compression from 'compression';
import express from 'express';
import { Logger, Params, PARAMS_PROVIDER_TOKEN } from 'nestjs-pino';
import { bodyParsers } from './common/http/body-parsers';
import { rejectMalformedPath } from './common/http/path-encoding';
import { securityHeaders } from './common/http/security-headers';
import { applyServerLimits } from './common/http/server-limits';
import { Drain } from './common/lifecycle/drain';
import { RequestPinoLogger, requestContext } from './common/logging/request-context';
import { accessLog } from './common/logging/logger.options';
import { httpMetrics } from './common/metrics/http-metrics.middleware';
import { setupApiDocs } from './common/openapi/api-docs';
import { AppConfig } from './config/app-config';
import { CONSOLE_ASSETS } from './console-pages/console-pages.files';
import { WEBHOOK_PATH } from './processor-webhook/processor-webhook.controller';
import { DEVICE_BATCH_BODY_BYTES, DEVICE_BATCH_PATH } from './device/batch/device-batch.dto';

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
 * and `bodyParser: false`. The middlewares run in the order registered here, before the routes.
 */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const config = app.get(AppConfig);
  const params = app.get<Params>(PARAMS_PROVIDER_TOKEN);
  // nestjs-pino's Logger, its lines in a request on that request's logger (request-context.ts).
  app.useLogger(new Logger(new RequestPinoLogger(params), params));
  const drain = app.get(Drain);
  applyServerLimits(app.getHttpServer(), config.httpTimeouts, (socket) => drain.answering(socket));
  // First, so every request leaves one access line however it ends (the probes and the scrape
  // excepted: logger.options.ts).
  app.use(accessLog(params));
  if (config.metricsEnabled) app.use(httpMetrics());
  // Before the drain's refusal, so that answer carries them too.
  const issuer = config.oidc.consoleIssuer;
  app.use(securityHeaders({ consoleConnectSrc: issuer ? [issuer] : [] }));
  // On SIGTERM: counts what is in flight, refuses what is new (graceful-shutdown.ts).
  app.use(drain.gate());
  // The rest of the request runs in its context: its application and audit lines.
  app.use(requestContext());
  app.use(rejectMalformedPath());
  // Answers preflights itself (204). No cookie parser: the session cookie is read where it is used.
  app.enableCors({
    origin: [...config.corsOrigins],
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id', 'Retry-After'],
    maxAge: 600,
  });
  // The plans page's script and styles; served from dist/ next to the compiled module. A
  // directory (`/plans/assets/`) is not served and falls through to the 404 of the routes.
  app.useStaticAssets(join(__dirname, 'plans', 'public'), {
    prefix: '/plans/assets',
    maxAge: '5m',
    index: false,
    redirect: false,
  });
  // The console's scripts and styles: content-hashed names, so a year and immutable; a missing
  // file is a 404 (the console's document is for its pages, console-pages.controller.ts).
  // Gzipped for the browser (a third of the bytes); API answers stay as they are.
  app.use('/console/assets', compression());
  app.useStaticAssets(CONSOLE_ASSETS, {
    prefix: '/console/assets',
    maxAge: '365d',
    immutable: true,
    index: false,
    redirect: false,
  });
  // The webhook gets its exact bytes (the signature covers them), up to the larger raw limit;
  // the device batch (1 000 devices) its own JSON limit.
  app.use(bodyParsers([WEBHOOK_PATH], { [DEVICE_BATCH_PATH]: DEVICE_BATCH_BODY_BYTES }));
  // Swagger UI at /api/docs, the document at /api/docs-json (built on its first request).
  setupApiDocs(app, config);
  return app;
}
