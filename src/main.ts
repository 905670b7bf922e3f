// First, for its effect: the embedded database starts in a worker while the modules below load.
import './database/embedded/embedded-postgres.early';
import { Logger as NestLogger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp, createHttpAdapter } from './app.setup';
import { installGracefulShutdown } from './common/lifecycle/graceful-shutdown';
import { bootStep } from './common/errors/boot.error';
import { reportBootFailure } from './common/logging/boot-failure';
import { installFatalErrorLogging } from './common/logging/fatal-error';
import { flushLogsSync } from './common/logging/log-destination';
import { loadAppConfig } from './config/load-env';
import { stripeSdk } from './processor/payment-processor.client';

async function bootstrap(): Promise<void> {
  // Lines written before the app's logger exists (a config warning) wait for it, in its format.
  NestLogger.attachBuffer();
  // The same instance AppModule gets (loadAppConfig reads once per process).
  const config = loadAppConfig();
  installFatalErrorLogging({ level: config.logLevel });
  // The processor's SDK now, while the embedded database starts, not on the first checkout or
  // webhook: loading it stalls every request in flight for as long, past the Redis command
  // timeout of the rate limits on a busy machine.
  if (config.stripe.secretKey || config.stripe.webhookSecrets.length > 0) stripeSdk();
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule,
    createHttpAdapter(config),
    // Nest's own lines stay buffered if the boot fails: reportBootFailure says it in one line.
    { bufferLogs: true, autoFlushLogs: false, bodyParser: false, abortOnError: false },
  );
  configureApp(app);
  app.flushLogs(); // the boot's buffered lines, now in the app's format
  installGracefulShutdown(app, config);
  await bootStep('the HTTP port', ['HOST', 'PORT'], () => app.listen(config.port, config.host));
  app.get(Logger).log(`Listening on http://${config.host}:${config.port} (API docs: /api/docs)`);
}

bootstrap().catch((err: unknown) => {
  // A bad setting or an unreachable database: one line naming it, no stack, status 1; after any
  // line the app had buffered, so they stay in order.
  flushLogsSync();
  reportBootFailure(err);
  process.exit(1);
});
