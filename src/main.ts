// First, for its effect: the embedded database starts in a worker while the modules below load.
import './database/embedded-postgres.early';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp, createHttpAdapter } from './app.setup';
import { loadAppConfig } from './config/config.module';

async function bootstrap(): Promise<void> {
  // The same instance AppModule gets (loadAppConfig reads once per process).
  const config = loadAppConfig();
  const app = await NestFactory.create<NestExpressApplication>(
    AppModule,
    createHttpAdapter(config),
    { bufferLogs: true, bodyParser: false, abortOnError: false },
  );
  configureApp(app);
  await app.listen(config.port, config.host);
  app.get(Logger).log(`Listening on http://${config.host}:${config.port} (API docs: /api/docs)`);
}

bootstrap().catch((err: unknown) => {
  // A bad setting or an unreachable database: say why in one line and exit non-zero.
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
