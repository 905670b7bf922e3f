import { join } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { Logger } from 'nestjs-pino';
import { JSON_LIMIT_BYTES, registerJsonBody } from './common/http/body-parsers';
import { registerSecurityHeaders } from './common/http/security-headers';
import { requestId } from './common/logging/logger.options';
import { AppConfig } from './config/app-config';

/** The webhook carries the processor's full event, which can exceed the 64 KiB default. */
export const WEBHOOK_PATH = '/api/payment-processor/webhook';

/**
 * The HTTP server: Fastify, for its per-request cost (see bench/findings.md). Proxy trust is fixed
 * when the server is made, so the adapter needs the config before Nest starts.
 */
export function createHttpAdapter(config: AppConfig): FastifyAdapter {
  return new FastifyAdapter({
    trustProxy: config.trustProxy,
    bodyLimit: JSON_LIMIT_BYTES,
    // Requests are logged by nestjs-pino (loggerOptions) with these ids.
    logger: false,
    genReqId: requestId,
    requestIdHeader: false,
  });
}

/**
 * Everything about the HTTP layer that is not a route: used by main.ts and by the e2e tests, so
 * the tests exercise the same stack as production. Call before app.init(): it sets route options.
 */
export async function configureApp(app: NestFastifyApplication): Promise<NestFastifyApplication> {
  const config = app.get(AppConfig);
  app.useLogger(app.get(Logger));
  const fastify = app.getHttpAdapter().getInstance();
  registerJsonBody(fastify, [WEBHOOK_PATH]);
  registerSecurityHeaders(fastify);
  app.enableCors({
    origin: config.corsOrigins,
    credentials: true,
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id', 'Retry-After'],
    maxAge: 600,
  });
  await app.register(fastifyCookie);
  // The plans page's script and styles; served from dist/ next to the compiled module.
  app.useStaticAssets({
    root: join(__dirname, 'plans', 'public'),
    prefix: '/plans/assets/',
    maxAge: '5m',
    index: false,
    // Swagger's UI registers @fastify/static too; the reply decorator can exist only once.
    decorateReply: false,
  });
  setupApiDocs(app, config);
  app.enableShutdownHooks();
  return app;
}

function setupApiDocs(app: NestFastifyApplication, config: AppConfig): void {
  // A factory: the document (~0.1-0.2 s of reflection over every route) is built on the first
  // request for it, not during boot.
  const document = () =>
    SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Device-care service')
        .setDescription(
          'Sessions for people (cookie), short-lived bearer tokens for devices, the organization ' +
            'device list, the public subscription checkout and the payment processor webhook. ' +
            'Errors are RFC 9457 problem details with a stable `code`.',
        )
        .setVersion(config.version)
        .addCookieAuth(config.session.cookieName, { type: 'apiKey', in: 'cookie' }, 'session')
        .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }, 'device')
        .build(),
    );
  SwaggerModule.setup('api/docs', app, document, { jsonDocumentUrl: 'api/docs-json' });
}
