import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { isDatabaseUnavailable } from '../../database/database-errors';
import { AppException } from './app.exception';
import { codeForStatus, ErrorCode } from './error-code.enum';
import { problem, ProblemDetails, sendProblem } from './problem-details';

/**
 * The one place an exception becomes a response: every error leaves as problem details, and
 * nothing internal (stack, SQL, secret) reaches the client. Unknown errors are logged in full.
 */
const FIXED_DETAILS: Record<number, string> = {
  413: 'The request body is too large.',
  415: 'The request body must be application/json.',
};

@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const res = host.switchToHttp().getResponse<FastifyReply>();
    if (res.sent) return;
    const { body, headers } = this.toProblem(exception);
    sendProblem(res, body, headers);
  }

  private toProblem(exception: unknown): {
    body: ProblemDetails;
    headers?: Record<string, string>;
  } {
    if (exception instanceof AppException) {
      const body = problem(
        exception.getStatus(),
        exception.code,
        exception.detail,
        exception.errors,
      );
      return { body, headers: exception.headers };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return { body: problem(status, codeForStatus(status), this.detailOf(exception)) };
    }
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`Database unavailable: ${String(exception)}`);
      return {
        body: problem(503, ErrorCode.Unavailable, 'The service is temporarily unavailable.'),
        headers: { 'Retry-After': '5' },
      };
    }
    this.logger.error(
      exception instanceof Error ? (exception.stack ?? exception.message) : exception,
    );
    return { body: problem(500, ErrorCode.InternalError, 'An unexpected error occurred.') };
  }

  /** Nest's own exceptions carry safe, fixed messages ("Cannot GET /x", "Forbidden resource"). */
  private detailOf(exception: HttpException): string {
    // Fastify refuses these before a route runs; its messages echo the request's content type.
    const fixed = FIXED_DETAILS[exception.getStatus()];
    if (fixed) return fixed;
    const response = exception.getResponse();
    if (typeof response === 'string') return response;
    const message = (response as { message?: unknown }).message;
    if (typeof message === 'string') return message;
    if (Array.isArray(message)) return message.map(String).join('; ');
    return exception.message;
  }
}
