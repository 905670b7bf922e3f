import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import cookieParser from 'cookie-parser';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { jsonBodyParser } from './common/http/body-parsers';
import { AppConfig } from './config/app-config';

/** The webhook carries the processor's full event, which can exceed the 64 KiB default. */
export const WEBHOOK_PATH = '/api/payment-processor/webhook';

/**
 * Everything about the HTTP layer that is not a route: used by main.ts and by the e2e tests, so
 * the tests exercise the same stack as production. The app must be created with bodyParser: false.
 */
export function configureApp(app: NestExpressApplication): NestExpressApplication {
  const config = app.get(AppConfig);
  app.useLogger(app.get(Logger));
  app.set('trust proxy', config.trustProxy);
  app.use(helmet());
  app.enableCors({
    origin: config.corsOrigins,
    credentials: true,
    methods: ['GET', 'POST', 'PATCH', 'DELETE'],
    allowedHeaders: ['Content-Type', 'Authorization', 'X-Request-Id'],
    exposedHeaders: ['X-Request-Id', 'Retry-After'],
    maxAge: 600,
  });
  app.use(cookieParser());
  // The plans page's script and styles; served from dist/ next to the compiled module.
  app.useStaticAssets(join(__dirname, 'plans', 'public'), {
    prefix: '/plans/assets/',
    maxAge: '5m',
    index: false,
  });
  app.use(jsonBodyParser([WEBHOOK_PATH]));
  setupApiDocs(app, config);
  app.enableShutdownHooks();
  return app;
}

function setupApiDocs(app: NestExpressApplication, config: AppConfig): void {
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
