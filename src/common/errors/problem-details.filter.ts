import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { conflictFor, isDatabaseUnavailable } from './database-errors';
import { DomainError } from './domain.error';
import { codeForStatus, ERROR_TABLE, ErrorCode } from './error-code.enum';
import { problem, PROBLEM_CONTENT_TYPE, ProblemDetails, problemOf } from './problem-details';

interface Problem {
  body: ProblemDetails;
  headers?: Record<string, string>;
}

/** A 400 of the platform is a body it could not read, not one our rules found invalid. */
const UNREADABLE = 'The request could not be read.';

/**
 * The one place an exception becomes a response: every error leaves as problem details, and
 * nothing internal (stack, SQL, secret) reaches the client. Unknown errors are logged in full.
 * It writes through Nest's HTTP adapter, so it does not depend on the platform.
 */
@Catch()
export class ProblemDetailsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Errors');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    if (host.getType() !== 'http') throw exception;
    const res: unknown = host.switchToHttp().getResponse();
    const http = this.adapterHost.httpAdapter;
    if (http.isHeadersSent(res)) return;
    const { body, headers } = this.toProblem(exception);
    for (const [name, value] of Object.entries(headers ?? {})) http.setHeader(res, name, value);
    http.setHeader(res, 'Content-Type', PROBLEM_CONTENT_TYPE);
    http.reply(res, JSON.stringify(body), body.status);
  }

  private toProblem(exception: unknown): Problem {
    exception = conflictFor(exception) ?? exception;
    if (exception instanceof DomainError) {
      const { code, detail, errors, headers } = exception;
      return { body: problemOf(code, detail, errors), headers };
    }
    // Nest's own (a route not found, a guard answering false): HTTP-layer, mapped back to a code.
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return { body: problem(status, codeForStatus(status), this.detailOf(exception)) };
    }
    const platform = platformRefusal(exception);
    if (platform) return platform;
    if (isDatabaseUnavailable(exception)) {
      this.logger.warn(`Database unavailable: ${String(exception)}`);
      return {
        body: problemOf(ErrorCode.Unavailable),
        headers: { 'Retry-After': '5' },
      };
    }
    this.logger.error(
      exception instanceof Error ? (exception.stack ?? exception.message) : exception,
    );
    return { body: problemOf(ErrorCode.InternalError) };
  }

  /** Nest's own exceptions carry safe, fixed messages ("Cannot GET /x", "Forbidden resource"). */
  private detailOf(exception: HttpException): string {
    const response = exception.getResponse();
    if (typeof response === 'string') return response;
    const message = (response as { message?: unknown }).message;
    if (typeof message === 'string') return message;
    if (Array.isArray(message)) return message.map(String).join('; ');
    return exception.message;
  }
}

/**
 * A client error a platform middleware raised (http-errors with a 4xx status, marked safe to
 * show: `expose`), answered with a fixed detail (its messages echo input): the table's, for the
 * status's generic code. Anything else with a status (an SDK's error, say) stays a fault of ours.
 */
function platformRefusal(exception: unknown): Problem | undefined {
  if (!(exception instanceof Error)) return undefined;
  const { status, expose } = exception as { status?: unknown; expose?: unknown };
  if (typeof status !== 'number' || status < 400 || status > 499 || expose !== true) {
    return undefined;
  }
  const code = codeForStatus(status);
  const detail =
    status === 400
      ? UNREADABLE
      : code === ErrorCode.InternalError
        ? 'The request was refused.'
        : ERROR_TABLE[code].example;
  return { body: problem(status, code, detail) };
}
