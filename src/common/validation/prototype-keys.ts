import type { FieldError } from '../errors/domain.error';

/**
 * The one rule for JSON keys that reach a prototype; the body parser refuses them
 * (body-parsers.ts) and cleanAllText drops them from signed input (storable-text.ts). `__proto__`
 * assigned to a plain object becomes its prototype; `constructor` holding its own `prototype` is
 * what a deep merge walks into (`target.constructor.prototype`). Any other `constructor` is data.
 * `parentKey` is for a walk that changes keys as it goes (cleanAllText: `proto\u0000type` under
 * `constructor` becomes `prototype` only once cleaned, after its parent was judged).
 */
export function reachesPrototype(key: string, value: unknown, parentKey?: string): boolean {
  if (key === '__proto__') return true;
  if (parentKey === 'constructor' && key === 'prototype') return true;
  return (
    key === 'constructor' &&
    typeof value === 'object' &&
    value !== null &&
    Object.hasOwn(value, 'prototype')
  );
}

/**
 * Every key `reachesPrototype` is true for is one of these words, or a `constructor` holding a
 * `prototype` key: a JSON text that spells neither word (nor a letter of one as an escape) has no
 * key the rule drops (storable-json-text.ts). Keep it in step with the rule.
 */
export const PROTOTYPE_KEY_WORDS: readonly string[] = ['__proto__', 'prototype'];

/** Object.prototype's own names (`toString`, `constructor`, `__proto__`…) and `prototype`. */
const PROTOTYPE_NAMES: ReadonlySet<string> = new Set([
  ...Object.getOwnPropertyNames(Object.prototype),
  'prototype',
]);

/** class-validator's message for a key the whitelist refuses, so these read as any other. */
const unknownField = (key: string) => `property ${key} should not exist`;

/**
 * Keys at any depth of a DTO's value named like an Object.prototype member, or `prototype`, as
 * unknown-field errors (`public_key.valueOf`). No DTO field can hold one, and the whitelist never
 * sees them: Nest's pipe deletes `constructor`, `prototype` and `__proto__`, and
 * class-transformer skips a key the new instance has as a method. Unrefused, they were dropped
 * silently, although unknown fields are refused. Walks plain objects and arrays, iteratively.
 */
export function findPrototypeNamedKeys(root: unknown): FieldError[] {
  const errors: FieldError[] = [];
  const stack: [value: unknown, path: string][] = [[root, '']];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (!isPlainContainer(value)) continue;
    const children: [unknown, string][] = [];
    for (const key of Object.keys(value)) {
      const field = path ? `${path}.${key}` : key;
      if (PROTOTYPE_NAMES.has(key)) errors.push({ field, message: unknownField(key) });
      else if (typeof value[key] === 'object') children.push([value[key], field]);
    }
    // Reversed onto the stack, so nested values are reported in the order they came.
    for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]);
  }
  return errors;
}

/** An array, or an object as the JSON and query parsers make them (plain, or without a prototype). */
function isPlainContainer(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return true;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
