import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Global, Logger, Module } from '@nestjs/common';
import { ConfigModule as NestConfigModule } from '@nestjs/config';
import { AppConfig } from './app-config';
import { loadEnv } from './load-env';

/** The version in package.json; the same relative path holds from src/config and dist/config. */
function packageVersion(): string {
  const raw = readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8');
  return (JSON.parse(raw) as { version: string }).version;
}

let loaded: AppConfig | undefined;

/**
 * Validated configuration, from the environment and an optional `.env` (loadEnv), once per process:
 * main.ts needs it before Nest starts (the HTTP server's proxy trust), and a generated device-token
 * secret must be the same one everywhere.
 */
export function loadAppConfig(): AppConfig {
  if (loaded) return loaded;
  const config = new AppConfig(loadEnv(), packageVersion());
  if (config.deviceToken.secretWasGenerated) {
    new Logger('Config').warn(
      'DEVICE_TOKEN_SECRET is not set: using a random secret, so device tokens end with this process',
    );
  }
  loaded = config;
  return config;
}

/**
 * The process's configuration for code outside Nest's container (migrations): the one
 * loadAppConfig made, or else the environment validated on the spot, without its boot warnings.
 */
export function processAppConfig(): AppConfig {
  return loaded ?? new AppConfig(loadEnv(), packageVersion());
}

@Global()
@Module({
  // @nestjs/config (the contract's stack) holds the validated settings for Nest's ConfigService,
  // but reads nothing itself: no .env file, no process.env. loadEnv stays the one reader.
  imports: [
    NestConfigModule.forRoot({
      cache: true,
      ignoreEnvFile: true,
      skipProcessEnv: true,
      load: [() => ({ ...loadEnv() })],
    }),
  ],
  providers: [{ provide: AppConfig, useFactory: loadAppConfig }],
  exports: [AppConfig],
})
export class ConfigModule {}
