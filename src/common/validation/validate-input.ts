import type { Type } from '@nestjs/common';
import { AppValidationPipe } from './app-validation.pipe';

const pipe = new AppValidationPipe();

/**
 * A plain object checked against a DTO class exactly as the API checks a request body (the one
 * global pipe: storable text, whitelist, conversions), for input that does not come over HTTP (the
 * CLI). Throws the same `validation_failed` DomainError.
 */
export async function validateInput<T extends object>(
  dto: Type<T>,
  value: Record<string, unknown>,
): Promise<T> {
  return (await pipe.transform(value, { type: 'body', metatype: dto })) as T;
}
