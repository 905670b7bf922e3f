import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parse } from 'dotenv';
import { EnvironmentVariables, validateEnv } from './env.validation';

/**
 * The raw settings: `.env` in the working directory (parsed by dotenv, never copied into
 * process.env), with the process environment on top (real variables win). The one place in the
 * service that reads either.
 */
export function readEnv(): Record<string, string | undefined> {
  const file = resolve(process.cwd(), '.env');
  return { ...(existsSync(file) ? parse(readFileSync(file)) : {}), ...process.env };
}

let loaded: EnvironmentVariables | undefined;

/**
 * The validated settings, read once per process: the config module, the early embedded start and
 * the TypeORM CLI all get these. A bad value throws one error naming every bad variable.
 */
export function loadEnv(): EnvironmentVariables {
  loaded ??= validateEnv(readEnv());
  return loaded;
}
