import { ValidateIf, ValidationOptions } from 'class-validator';

/**
 * The field may be left out; when it is sent, every rule of the field runs, also on `null`.
 * Used instead of class-validator's `@IsOptional()`, which skips the rules for null as well:
 * null then reached services that tell "not sent" by `=== undefined` (a 500, or a column
 * nulled). One rule for every DTO: null is a value, and no field's rules accept it
 * (docs/api.md#null).
 */
export function IsOmittable(options?: ValidationOptions): PropertyDecorator {
  return ValidateIf((_object: object, value: unknown) => value !== undefined, options);
}
