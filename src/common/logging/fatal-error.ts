import { flushLogsSync, serverLogDestination } from './log-destination';
import { createLogger, LogSettings } from './logger.factory';

/**
 * An exception nothing caught, or a rejection nothing handled: one `fatal` line with the stack (a
 * real fault), the buffered lines before it written out, and status 1, as Node would have done
 * (Node's own report goes to stderr and skips the 'exit' event, so the buffer would be lost).
 */
export function installFatalErrorLogging(settings: Pick<LogSettings, 'level'>): void {
  const logger = createLogger({ level: settings.level }, serverLogDestination());
  process.on('uncaughtException', (err: unknown, origin) => {
    try {
      const message = err instanceof Error ? err.message : String(err);
      logger.fatal({ context: 'Process', err, origin }, `${origin}: ${message}`);
    } finally {
      flushLogsSync();
      process.exit(1);
    }
  });
}
