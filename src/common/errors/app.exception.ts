import { HttpException } from '@nestjs/common';
import { ErrorCode } from './error-code.enum';

export interface FieldError {
  field: string;
  message: string;
}

/**
 * The one exception services throw for an expected failure: a stable code, the HTTP status and a
 * human detail. The problem-details filter turns it into the response body.
 */
export class AppException extends HttpException {
  constructor(
    readonly code: ErrorCode,
    status: number,
    readonly detail: string,
    readonly errors?: FieldError[],
    readonly headers?: Record<string, string>,
  ) {
    super(detail, status);
  }
}
