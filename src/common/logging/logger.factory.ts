import pino, { DestinationStream, Logger, LoggerOptions } from 'pino';
import type { LogLevel } from '../../config/env.validation';

/**
 * Credentials and signatures never reach a log line, whatever the level. The server's logger
 * needs no paths: its req and res serializers keep no header (logger.options.ts). These cover the
 * CLI's and the boot's loggers, which serialize only `err` and so need them.
 */
export const REDACTED_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'req.headers["stripe-signature"]',
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
];

export interface LogSettings {
  level: LogLevel;
  /** One readable line per entry (pino-pretty) instead of JSON; never in production. */
  pretty?: boolean;
}

/**
 * The one shape of the service's log lines (pino JSON: numeric level, time, pid, context), for
 * the server (nestjs-pino, through loggerOptions), the CLI (stderr) and the boot's last word.
 */
export function pinoOptions({ level, pretty }: LogSettings): LoggerOptions {
  return {
    level,
    transport: pretty ? { target: 'pino-pretty', options: { singleLine: true } } : undefined,
  };
}

/** A logger of that shape writing JSON lines to `stream`, with the credentials' paths redacted. */
export function createLogger(settings: LogSettings, stream: DestinationStream): Logger {
  return pino(
    {
      ...pinoOptions({ ...settings, pretty: false }),
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
    },
    stream,
  );
}
