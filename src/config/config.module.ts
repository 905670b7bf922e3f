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
  // @nestjs/config (the contract's stack) is here for libraries that look for its ConfigService,
  // but reads nothing itself (no .env file, no process.env) and is given nothing: AppConfig is the
  // one typed reader. A `load: [loadEnv]` ran at every boot, also of a test app given its own
  // AppConfig, and filled loadEnv's once-per-process cache from that moment's environment, so a
  // later CLI run in the same process used another database.
  imports: [NestConfigModule.forRoot({ cache: true, ignoreEnvFile: true, skipProcessEnv: true })],
  providers: [{ provide: AppConfig, useFactory: loadAppConfig }],
  exports: [AppConfig],
})
export class ConfigModule {}
