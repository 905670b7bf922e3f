// First, for its effect: the embedded database starts in a worker while the modules below load.
import './database/embedded-postgres.early';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Logger } from 'nestjs-pino';
import { AppModule } from './app.module';
import { configureApp } from './app.setup';
import { AppConfig } from './config/app-config';

async function bootstrap(): Promise<void> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule, {
    bufferLogs: true,
    bodyParser: false,
    abortOnError: false,
  });
  configureApp(app);
  const config = app.get(AppConfig);
  await app.listen(config.port, config.host);
  app.get(Logger).log(`Listening on http://${config.host}:${config.port} (API docs: /api/docs)`);
}

bootstrap().catch((err: unknown) => {
  // A bad setting or an unreachable database: say why in one line and exit non-zero.
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
