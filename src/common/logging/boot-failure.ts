import pino from 'pino';
import { createLogger } from './logger.factory';
import { BootError } from '../errors/boot.error';
import { ConfigError } from '../../config/env.validation';
import { readEnv } from '../../config/load-env';
import { parseBool } from '../../config/parse';

interface BootFailure {
  msg: string;
  settings?: string[];
  resource?: string;
  problems?: string[];
}

/** What failed, in words and names; never a stack, a URL or a secret value. */
export function describeBootFailure(err: unknown): BootFailure {
  if (err instanceof ConfigError) {
    const msg = `boot failed: invalid configuration: ${err.problems.join('; ')}`;
    return { msg, settings: err.settings, problems: err.problems };
  }
  if (err instanceof BootError) {
    const msg = `boot failed: ${err.message} (check ${err.settings.join(', ')})`;
    return { msg, resource: err.resource, settings: err.settings };
  }
  return { msg: `boot failed: ${err instanceof Error ? err.message : String(err)}` };
}

/** LOG_PRETTY read raw: the configuration that says so may be the thing that failed. */
function wantsPretty(raw: Record<string, string | undefined>): boolean {
  const pretty = parseBool(raw.LOG_PRETTY) === true;
  return pretty && raw.NODE_ENV !== 'production';
}

/**
 * The boot's last word: one JSON line at `fatal` (one readable line with LOG_PRETTY), written
 * synchronously so it is out before the process exits.
 */
export function reportBootFailure(err: unknown, raw = readEnv()): void {
  const failure = describeBootFailure(err);
  if (wantsPretty(raw)) {
    const names = failure.settings ? ` [${failure.settings.join(', ')}]` : '';
    process.stdout.write(`FATAL (Boot): ${failure.msg.replace(/\s*\n\s*/g, ' ')}${names}\n`);
    return;
  }
  createLogger({ level: 'fatal' }, pino.destination({ dest: 1, sync: true })).fatal({
    context: 'Boot',
    ...failure,
  });
}
