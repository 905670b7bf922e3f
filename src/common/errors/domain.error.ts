import { ErrorCode } from './error-code.enum';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * An expected failure, raised by services (and guards, pipes, the body parser) with a stable code
 * and a human detail. It knows no HTTP status: the problem-details filter maps the code to one
 * (statusOf), the command line to an exit code. Each feature has its own subclass.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors?: FieldError[],
    /** Response headers the answer needs whatever carries it, e.g. `Retry-After`. */
    readonly headers?: Record<string, string>,
  ) {
    super(detail);
    this.name = new.target.name;
  }
}
