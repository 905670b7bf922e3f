import { ArgumentMetadata, Injectable, ValidationPipe } from '@nestjs/common';
import { validatorPackage } from '../../config/class-validator';
import { DomainError } from '../errors/domain.error';
import { ErrorCode } from '../errors/error-code.enum';
import { validationExceptionFactory } from '../errors/validation.exception-factory';
import { findUnstorableText } from './storable-text';
import { cacheValidationRules } from './validation-rules.cache';

/**
 * The one global pipe: every body, query and path value is checked for text the database cannot
 * keep, then validated against its DTO. Here rather than a decorator on each DTO field, so a new
 * DTO (or a bare `@Param`) cannot forget it.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      transform: true,
      exceptionFactory: validationExceptionFactory,
      // Left to itself the pipe loads class-validator's entry, every rule it has (config/class-validator.ts).
      validatorPackage,
    });
    cacheValidationRules();
  }

  /** Not async itself: it hands back the base pipe's promise (one promise less per value). */
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Raw bytes (the webhook's body) are not text and have no DTO: walking a Buffer visited every
    // byte as a field, thousands per event (bench/findings.md). Their reader checks them itself.
    if (Buffer.isBuffer(value)) return Promise.resolve(value);
    // Custom parameter decorators hand over our own objects (the signed-in user), not input.
    if (metadata.type !== 'custom') {
      const errors = findUnstorableText(
        value,
        metadata.type === 'body' ? '' : (metadata.data ?? ''),
      );
      if (errors.length > 0) {
        return Promise.reject(
          new DomainError(
            ErrorCode.ValidationFailed,
            'The request is not valid; see errors for each field.',
            errors,
          ),
        );
      }
    }
    return super.transform(value, metadata);
  }
}
