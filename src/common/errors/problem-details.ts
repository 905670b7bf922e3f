import { STATUS_CODES } from 'node:http';
import { FieldError } from './domain.error';
import { ErrorCode, exampleOf, statusOf } from './error-code.enum';

/** RFC 9457 problem details, the body of every error response. */
export interface ProblemDetails {
  type: 'about:blank';
  title: string;
  status: number;
  code: ErrorCode;
  detail: string;
  errors?: FieldError[];
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

/**
 * The problem for one of our codes: its status from the error table, and the table's detail
 * unless the answer has a more telling one.
 */
export function problemOf(
  code: ErrorCode,
  detail: string = exampleOf(code),
  errors?: FieldError[],
): ProblemDetails {
  return problem(statusOf(code), code, detail, errors);
}

/** A problem for an HTTP status that came from elsewhere (Nest, the platform), with its code. */
export function problem(
  status: number,
  code: ErrorCode,
  detail: string,
  errors?: FieldError[],
): ProblemDetails {
  const body: ProblemDetails = {
    type: 'about:blank',
    title: STATUS_CODES[status] ?? 'Error',
    status,
    code,
    detail,
  };
  if (errors && errors.length > 0) body.errors = errors;
  return body;
}
