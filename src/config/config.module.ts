import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Global, Logger, Module } from '@nestjs/common';
import { ConfigModule as NestConfigModule } from '@nestjs/config';
import { AppConfig } from './app-config';
import { validateEnv } from './env.validation';

/** The version in package.json; the same relative path holds from src/config and dist/config. */
function packageVersion(): string {
  const raw = readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8');
  return (JSON.parse(raw) as { version: string }).version;
}

/** Validated configuration, loaded from the environment and an optional `.env`. */
export function loadAppConfig(): AppConfig {
  const config = new AppConfig(validateEnv(process.env), packageVersion());
  if (config.deviceToken.secretWasGenerated) {
    new Logger('Config').warn(
      'DEVICE_TOKEN_SECRET is not set: using a random secret, so device tokens end with this process',
    );
  }
  return config;
}

@Global()
@Module({
  // @nestjs/config copies `.env` into process.env (real variables win); AppConfig validates it all.
  imports: [NestConfigModule.forRoot({ cache: true })],
  providers: [{ provide: AppConfig, useFactory: loadAppConfig }],
  exports: [AppConfig],
})
export class ConfigModule {}
