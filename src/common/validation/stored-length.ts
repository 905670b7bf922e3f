import { buildMessage, ValidateBy } from 'class-validator';
import type { ValidationOptions } from 'class-validator';

/**
 * A string's length as PostgreSQL's `varchar(n)` counts it: code points. class-validator's
 * `MaxLength` counts otherwise (validator.js counts a letter and its variation selector U+FE0F
 * as one), and a value the service lower-cases may grow (`İ` becomes `i` + U+0307).
 */
export function storedLength(value: string): number {
  let length = 0;
  for (let i = 0; i < value.length; i += value.codePointAt(i)! > 0xffff ? 2 : 1) length++;
  return length;
}

/**
 * `MaxLength` judged on the value as it will be stored: `asStored` is the service's own
 * transform (lower-casing, normalising), and the length is counted in code points.
 */
export function MaxStoredLength(
  max: number,
  asStored: (value: string) => string = (value) => value,
  options?: ValidationOptions,
): PropertyDecorator {
  return ValidateBy(
    {
      name: 'maxStoredLength',
      constraints: [max],
      validator: {
        validate: (value: unknown) =>
          typeof value === 'string' && storedLength(asStored(value)) <= max,
        defaultMessage: buildMessage(
          (each) => `${each}$property must be shorter than or equal to $constraint1 characters`,
          options,
        ),
      },
    },
    options,
  );
}
