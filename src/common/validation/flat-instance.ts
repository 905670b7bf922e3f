import type { Type } from '@nestjs/common';
import type { ValidationPlan } from './validation-plan';

/** A property class-transformer would not fill simply after all: leave the value to it. */
const LEFT = Symbol('left to class-transformer');

type Scalar = string | number | boolean | null;

/**
 * What class-transformer's `transform` makes of a scalar (string, number, boolean, null) for a
 * property whose `@Type` names `type` (undefined without one): String, Number and Boolean
 * convert, null stays; a Date or a Buffer is left to class-transformer (which then builds the
 * instance again, from the start); any other type keeps the scalar as it is.
 */
function scalarAs(value: Scalar, type: unknown): unknown {
  if (type === String) return value === null ? value : String(value);
  if (type === Number) return value === null ? value : Number(value);
  if (type === Boolean) return value === null ? value : Boolean(value);
  if (type === Date || type === Buffer) return LEFT;
  return value;
}

/**
 * What class-transformer's `plainToInstance` makes of a flat value (the pipe's flatKeys: own
 * keys of scalars) when every key is a property the plan fills simply: a new instance, each key
 * set in the value's order, except over a method the instance has, as class-transformer skips
 * it. Undefined when some key is not such a property: class-transformer decides then.
 */
export function flatInstance<T extends object>(
  metatype: Type<T>,
  value: Record<string, unknown>,
  keys: string[],
  plan: ValidationPlan,
): T | undefined {
  if (!keys.every((key) => plan.properties.has(key))) return undefined;
  const entity = new metatype();
  const target = entity as Record<string, unknown>;
  for (const key of keys) {
    if (target[key] instanceof Function) continue;
    const typed = plan.properties.get(key);
    // As class-transformer asks its type function: per value, with the same arguments.
    const type: unknown = typed?.typeFunction
      ? typed.typeFunction({ newObject: entity, object: value, property: key })
      : typed?.reflectedType;
    const item = scalarAs(value[key] as Scalar, type);
    if (item === LEFT) return undefined;
    target[key] = item;
  }
  return entity;
}
