import { STATUS_CODES } from 'node:http';
import { FieldError } from './domain.error';
import { ErrorCode } from './error-code.enum';

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
