import { ERROR_TABLE, ErrorCode, statusOf } from '../errors/error-code.enum';
import { problem, ProblemDetails } from '../errors/problem-details';

/** A body exactly as the filter would write it for this code, with the table's example detail. */
export function exampleOf(code: ErrorCode): ProblemDetails {
  const errors =
    code === ErrorCode.ValidationFailed
      ? [{ field: 'email', message: 'email must be an email' }]
      : undefined;
  return problem(statusOf(code), code, ERROR_TABLE[code].example, errors);
}
