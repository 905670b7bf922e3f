import {
  ArgumentMetadata,
  Injectable,
  ValidationPipe,
  ValidationPipeOptions,
} from '@nestjs/common';
import { DomainError, FieldError } from '../errors/domain.error';
import { ErrorCode } from '../errors/error-code.enum';
import { validationExceptionFactory } from '../errors/validation.exception-factory';
import { findPrototypeNamedKeys } from './prototype-keys';
import { findUnstorableText } from './storable-text';

/**
 * Nest's ValidationPipe options for every DTO: unknown fields refused, values converted to the
 * DTO, failures as one `validation_failed` DomainError. The differential spec builds Nest's own
 * pipe with these too (src/input-dtos.spec.ts).
 */
export const VALIDATION_OPTIONS: Readonly<ValidationPipeOptions> = {
  whitelist: true,
  forbidNonWhitelisted: true,
  transform: true,
  exceptionFactory: validationExceptionFactory,
};

function invalid(errors: FieldError[]): DomainError {
  return new DomainError(
    ErrorCode.ValidationFailed,
    'The request is not valid; see errors for each field.',
    errors,
  );
}

/**
 * The one global pipe: Nest's ValidationPipe, with two checks before it that a DTO cannot
 * express: text the database cannot keep (storable-text.ts), in every body, query and path value,
 * so a new DTO (or a bare `@Param`) cannot forget it; and keys named like Object.prototype
 * members, which Nest's pipe drops unseen (prototype-keys.ts), refused as any unknown field.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({ ...VALIDATION_OPTIONS });
  }

  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Raw bytes (the webhook's body) are not text and have no DTO: their reader checks them.
    if (Buffer.isBuffer(value)) return Promise.resolve(value);
    // Custom parameter decorators hand over our own objects (the signed-in user), not input.
    if (metadata.type === 'custom') return super.transform(value, metadata);
    const unstorable = findUnstorableText(
      value,
      metadata.type === 'body' ? '' : (metadata.data ?? ''),
    );
    if (unstorable.length > 0) return Promise.reject(invalid(unstorable));
    const unknown = this.toValidate(metadata) ? findPrototypeNamedKeys(value) : [];
    if (unknown.length > 0) return this.refuseWith(unknown, value, metadata);
    return super.transform(value, metadata);
  }

  /** One 400 with `unknown` first, then whatever else Nest's pipe finds wrong in the value. */
  private async refuseWith(
    unknown: FieldError[],
    value: unknown,
    metadata: ArgumentMetadata,
  ): Promise<never> {
    let others: FieldError[] = [];
    try {
      await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== ErrorCode.ValidationFailed) throw error;
      others = error.errors ?? [];
    }
    throw invalid([...unknown, ...others]);
  }
}
