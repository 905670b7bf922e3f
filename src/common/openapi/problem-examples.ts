import { ErrorCode } from '../errors/error-code.enum';
import { problemOf, ProblemDetails } from '../errors/problem-details';

/** A body exactly as the filter would write it for this code, with the table's example detail. */
export function exampleOf(code: ErrorCode): ProblemDetails {
  const errors =
    code === ErrorCode.ValidationFailed
      ? [{ field: 'email', message: 'email must be an email' }]
      : undefined;
  return problemOf(code, undefined, errors);
}
