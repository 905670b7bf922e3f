import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse } from 'dotenv';
import { AppConfig } from './app-config';
import { validateEnv } from './env.validation';

/**
 * The raw settings: `.env` in the working directory (parsed by dotenv, never copied into
 * process.env), with the process environment on top (real variables win). The one place in the
 * service that reads either.
 */
export function readEnv(): Record<string, string | undefined> {
  const file = resolve(process.cwd(), '.env');
  return { ...(existsSync(file) ? parse(readFileSync(file)) : {}), ...process.env };
}

/** The version in package.json; the same relative path holds from src/config and dist/config. */
function packageVersion(): string {
  const raw = readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8');
  return (JSON.parse(raw) as { version: string }).version;
}

let loaded: AppConfig | undefined;

/**
 * The validated configuration, read once per process (the one cache): main.ts needs it before
 * Nest starts (the HTTP server's proxy trust), the early embedded start, the TypeORM CLI and the
 * migrations outside Nest; and a generated device-token secret must be the same one everywhere.
 * A bad value throws one ConfigError naming every bad variable, and is not cached.
 */
export function loadAppConfig(): AppConfig {
  loaded ??= new AppConfig(validateEnv(readEnv()), packageVersion());
  return loaded;
}
