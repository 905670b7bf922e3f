import { ValidationError } from '@nestjs/common';
import { DomainError, FieldError } from './domain.error';
import { ErrorCode } from './error-code.enum';

function flatten(errors: ValidationError[], prefix = ''): FieldError[] {
  return errors.flatMap((e) => {
    const field = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((message) => ({ field, message }));
    return own.concat(flatten(e.children ?? [], field));
  });
}

/** Turns class-validator failures into one 400 with a per-field list. */
export function validationExceptionFactory(errors: ValidationError[]): DomainError {
  const fieldErrors = flatten(errors);
  return new DomainError(
    ErrorCode.ValidationFailed,
    'The request is not valid; see errors for each field.',
    fieldErrors,
  );
}
