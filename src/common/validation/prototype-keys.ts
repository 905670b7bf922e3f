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
