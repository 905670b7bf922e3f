import type { LoggerService } from '@nestjs/common';

/**
 * The CLI's logger: stdout carries the command's one JSON answer, so log lines go to stderr, and
 * only those an operator must keep: audit lines (an account moved or disabled from the command
 * line is a security event as much as through the API) and errors. Warnings are about a serving
 * process (a generated device-token secret, Redis away), not about a one-shot command.
 */
export class CliLogger implements LoggerService {
  constructor(private readonly write: (line: string) => void = (l) => process.stderr.write(l)) {}

  log(message: unknown, context?: string): void {
    if (context === 'Audit') this.line('info', message, context);
  }

  warn(_message?: unknown, _context?: string): void {}

  error(message: unknown, ...rest: unknown[]): void {
    const context = rest.length > 0 ? rest[rest.length - 1] : undefined;
    this.line('error', message, typeof context === 'string' ? context : undefined);
  }

  private line(level: string, message: unknown, context?: string): void {
    const fields = typeof message === 'object' && message !== null ? message : { msg: message };
    this.write(`${JSON.stringify({ level, context, ...fields })}\n`);
  }
}
