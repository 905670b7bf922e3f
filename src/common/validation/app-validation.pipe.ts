import { ArgumentMetadata, Injectable, Type, ValidationPipe } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import {
  validateSync,
  validatorPackage,
  ValidationError,
  ValidatorOptions,
} from '../../config/class-validator';
import { DomainError } from '../errors/domain.error';
import { ErrorCode } from '../errors/error-code.enum';
import { validationExceptionFactory } from '../errors/validation.exception-factory';
import { flatInstance } from './flat-instance';
import { findUnstorableText } from './storable-text';
import { planFor, ValidationPlan } from './validation-plan';
import { cacheValidationRules } from './validation-rules.cache';

/**
 * Keys the base pipe deletes before it transforms (its `stripProtoKeys`, Nest's
 * strip-proto-keys.util): a value with one keeps the base pipe. Not prototype-keys.ts's rule,
 * which tells input that reaches a prototype from data (a scalar `constructor` is data there).
 */
const STRIPPED_KEYS: ReadonlySet<string> = new Set(['__proto__', 'prototype', 'constructor']);

/**
 * The own keys of `value` when it is what nearly every body and query is: a plain object whose
 * values are all strings, numbers, booleans or null, without a key the base pipe would strip.
 * For such a value the base pipe's walks (closing array gaps, stripping prototype keys) change
 * nothing and find nothing, and no nested or binary value can be in it.
 */
function flatKeys(value: unknown): string[] | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const proto: unknown = Object.getPrototypeOf(value);
  // The JSON body parser's objects, and the query parser's (no prototype).
  if (proto !== Object.prototype && proto !== null) return undefined;
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  for (const key of keys) {
    const item = record[key];
    if ((typeof item === 'object' && item !== null) || typeof item === 'function') return undefined;
    if (STRIPPED_KEYS.has(key)) return undefined;
  }
  return keys;
}

/**
 * The one global pipe: every body, query and path value is checked for text the database cannot
 * keep, then validated against its DTO. Here rather than a decorator on each DTO field, so a new
 * DTO (or a bare `@Param`) cannot forget it.
 */
@Injectable()
export class AppValidationPipe extends ValidationPipe {
  /** The options the base pipe builds for every value (errors carry no target). */
  private readonly syncOptions: ValidatorOptions;

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
    this.syncOptions = {
      ...this.validatorOptions,
      validationError: { target: false, ...this.validatorOptions.validationError },
    };
  }

  /** Not async itself: it hands back one promise per value. */
  override transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // Raw bytes (the webhook's body) are not text and have no DTO: walking a Buffer visited every
    // byte as a field, thousands per event (docs/api.md). Their reader checks them itself.
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
      const keys = flatKeys(value);
      const plan = keys && this.planOf(metadata);
      if (plan) {
        // A throw (a DTO's constructor, a library fault) rejects, as it does in the base pipe.
        try {
          return this.transformFlat(value as Record<string, unknown>, keys, metadata, plan);
        } catch (err) {
          // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- what was thrown, as the base pipe's promise rejects with it
          return Promise.reject(err);
        }
      }
    }
    return super.transform(value, metadata);
  }

  /**
   * The plan when the base pipe would validate this value's DTO and the plan allows it; none with
   * an `expectedType` or transform options, which the flat path does not read. Protected so the
   * differential spec's pipe can turn the flat path off (src/input-dtos.spec.ts).
   */
  protected planOf(metadata: ArgumentMetadata): ValidationPlan | undefined {
    if (this.expectedType || this.transformOptions) return undefined;
    const metatype = metadata.metatype;
    if (!metatype || !this.toValidate(metadata)) return undefined;
    return planFor(metatype);
  }

  /**
   * The base pipe's `transform` for a flat value (flatKeys), step for step, less the steps that
   * provably do nothing for one, and with class-validator's `validateSync`, which finds what its
   * `validate` finds when no rule is async (the plan's condition), without its promises.
   */
  private transformFlat(
    value: Record<string, unknown>,
    keys: string[],
    metadata: ArgumentMetadata,
    plan: ValidationPlan,
  ): Promise<unknown> {
    const metatype = metadata.metatype as Type<object>;
    const entity =
      flatInstance(metatype, value, keys, plan) ??
      plainToInstance(metatype, value, this.transformOptions);
    // What the base pipe checks when the instance is not of the class (a transform that returns
    // something else): rare enough to leave to it.
    if (entity.constructor !== metatype) return super.transform(value, metadata);
    const binaryErrors = this.findNestedBinaryValues(entity);
    if (binaryErrors.length > 0) return this.reject(binaryErrors);
    const errors: ValidationError[] = validateSync(entity, this.syncOptions);
    if (errors.length > 0) {
      if (this.validatorOptions.validationError?.value === undefined) {
        this.stripParentErrorValues(errors);
      }
      return this.reject(errors);
    }
    return Promise.resolve(entity);
  }

  /**
   * The base pipe's answer to errors: the factory's DomainError (validation.exception-factory.ts).
   * The base pipe awaits the factory; ours is synchronous, so its error rejects as it is.
   */
  private reject(errors: ValidationError[]): Promise<never> {
    // The factory is typed `any` by Nest; ours returns a DomainError.
    const error = this.exceptionFactory(errors) as Error;
    return Promise.reject(error);
  }
}
