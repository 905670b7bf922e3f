import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean } from 'class-validator';

/**
 * A boolean in a query string: exactly `true` or `false` (a flag's own boolean from the CLI too);
 * anything else (`1`, `yes`, `TRUE`, a repeated parameter) stays as sent, and IsBoolean refuses it.
 */
export function QueryBoolean(): PropertyDecorator {
  return applyDecorators(
    Transform(({ value }: { value: unknown }) =>
      value === 'true' ? true : value === 'false' ? false : value,
    ),
    IsBoolean({ message: '$property must be true or false' }),
  );
}
