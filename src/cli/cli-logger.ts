import type { LoggerService } from '@nestjs/common';
import type { DestinationStream, Logger } from 'pino';
import { createLogger } from '../common/logging/logger.factory';

/**
 * The CLI's Nest logger, on the service's one logger factory: stdout carries the command's one
 * JSON answer, so lines go to stderr, and only those an operator must keep: audit lines (an
 * account moved or disabled from the command line is a security event as much as through the
 * API) and errors. Warnings are about a serving process (a generated device-token secret, Redis
 * away), not about a one-shot command.
 */
export class CliLogger implements LoggerService {
  private readonly pino: Logger;

  constructor(stream: DestinationStream = process.stderr) {
    this.pino = createLogger({ level: 'info' }, stream);
  }

  log(message: unknown, context?: string): void {
    if (context === 'Audit') this.pino.info(fieldsOf(message, context));
  }

  warn(_message?: unknown, _context?: string): void {}

  error(message: unknown, ...rest: unknown[]): void {
    const context = rest.length > 0 ? rest[rest.length - 1] : undefined;
    this.pino.error(fieldsOf(message, typeof context === 'string' ? context : undefined));
  }
}

function fieldsOf(message: unknown, context: string | undefined): object {
  const fields = typeof message === 'object' && message !== null ? message : { msg: message };
  return { context, ...fields };
}
