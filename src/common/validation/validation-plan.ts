import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';
import type { TypeMetadata } from 'class-transformer/types/interfaces/metadata/type-metadata.interface';
import type { Type } from '@nestjs/common';
import { TransformationType } from 'class-transformer';
import { getMetadataStorage } from '../../config/class-validator';

/** The one storage class-transformer reads (its entry does not export it). */
const transformerStorage =
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- a file of the package, see above
  (require('class-transformer/cjs/storage') as { defaultMetadataStorage: TransformerStorage })
    .defaultMetadataStorage;

type Rules = ReturnType<ReturnType<typeof getMetadataStorage>['getTargetValidationMetadatas']>;

/** class-validator's rule types (ValidationTypes) the plan looks at. */
const NESTED = 'nestedValidation';
const PROMISE = 'promiseValidation';
const CUSTOM = 'customValidation';
const PLAIN_TO_CLASS = TransformationType.PLAIN_TO_CLASS;

/**
 * What the pipe may do more cheaply for one DTO class, worked out once from the metadata: how
 * class-transformer fills each property from a flat value (one of scalars). A property not here,
 * or any property when the class itself has a transformer strategy or exposes or excludes names,
 * is left to class-transformer.
 */
export interface ValidationPlan {
  /**
   * Properties with no `@Type`, `@Transform`, `@Expose` or `@Exclude` and no accessor or method
   * of that name on the class: class-transformer copies the value as it is, or with a plain
   * `@Type` (no discriminator, not a Map) it converts it by the type that function names.
   */
  readonly properties: ReadonlyMap<string, TypeMetadata | undefined>;
}

/** The rules class-validator's executor looks up for a value of this class (no groups, no schema). */
export function rulesOf(metatype: Type<unknown>): Rules {
  return getMetadataStorage().getTargetValidationMetadatas(
    metatype,
    undefined as unknown as string,
    false,
    false,
    undefined,
  );
}

/**
 * True when `validateSync` finds exactly what `validate` finds for a value of this class: no rule
 * is a promise's (`@ValidatePromise`) or an async constraint's (which `validateSync` skips), and no
 * rule reaches a nested class (whose own rules would have to be checked too; those classes keep
 * the base pipe). A custom constraint that returns a promise must say `async: true` (as
 * class-validator asks): one that does not would pass unchecked here, where `validate` awaits it.
 */
function validatesSynchronously(rules: Rules): boolean {
  const storage = getMetadataStorage();
  return rules.every(
    (rule) =>
      rule.type !== NESTED &&
      rule.type !== PROMISE &&
      (rule.type !== CUSTOM ||
        storage.getTargetValidatorConstraints(rule.constraintCls).every((c) => !c.async)),
  );
}

/** The properties class-transformer fills simply (see ValidationPlan.properties). */
function simpleProperties(
  metatype: Type<unknown>,
  rules: Rules,
): Map<string, TypeMetadata | undefined> {
  const t = transformerStorage;
  const found = new Map<string, TypeMetadata | undefined>();
  if (
    t.getStrategy(metatype) !== 'none' ||
    t.getExposedProperties(metatype, PLAIN_TO_CLASS).length > 0 ||
    t.getExcludedProperties(metatype, PLAIN_TO_CLASS).length > 0
  ) {
    return found;
  }
  for (const name of new Set(rules.map((rule) => rule.propertyName))) {
    const type = t.findTypeMetadata(metatype, name) as TypeMetadata | undefined;
    const simple =
      (type === undefined || (!type.options?.discriminator && type.reflectedType !== Map)) &&
      t.findTransformMetadatas(metatype, name, PLAIN_TO_CLASS).length === 0 &&
      t.findExposeMetadataByCustomName(metatype, name) === undefined &&
      t.findExposeMetadata(metatype, name) === undefined &&
      t.findExcludeMetadata(metatype, name) === undefined &&
      !(name in metatype.prototype);
    if (simple) found.set(name, type);
  }
  return found;
}

// Keyed by the rules class-validator hands back, which validation-rules.cache.ts keeps until a
// rule is registered: a class that gains a rule gets a new plan.
const plans = new WeakMap<Rules, ValidationPlan | null>();

/**
 * The plan for a DTO class, or undefined when the pipe must leave the class to the base pipe (a
 * rule that is async or nested). Decorators run as classes load, before any request, so the
 * transformer's metadata read here is the metadata every later request sees.
 */
export function planFor(metatype: Type<unknown>): ValidationPlan | undefined {
  const rules = rulesOf(metatype);
  let plan = plans.get(rules);
  if (plan === undefined) {
    plan = validatesSynchronously(rules) ? { properties: simpleProperties(metatype, rules) } : null;
    plans.set(rules, plan);
  }
  return plan ?? undefined;
}
