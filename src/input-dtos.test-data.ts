import type { ArgumentMetadata, PipeTransform, Type } from '@nestjs/common';
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import fc from 'fast-check';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The rules class-validator's executor finds for a value of this class (no groups, no schema). */
export function rulesOf(dto: Type<unknown>) {
  return getMetadataStorage().getTargetValidationMetadatas(dto, '', false, false);
}

/**
 * The fields of a DTO that may be left out (a conditional rule: `@IsOmittable`), dotted into the
 * classes its nested rules validate (their declared type): the null-in-every-optional-field shape.
 */
export function optionalFields(dto: Type<unknown>, prefix = ''): string[] {
  const found = new Set<string>();
  for (const rule of rulesOf(dto)) {
    const field = `${prefix}${rule.propertyName}`;
    if (rule.type === ValidationTypes.CONDITIONAL_VALIDATION) found.add(field);
    if (rule.type === ValidationTypes.NESTED_VALIDATION) {
      const prototype = dto.prototype as object;
      const nested = Reflect.getMetadata('design:type', prototype, rule.propertyName) as Type;
      for (const inner of optionalFields(nested, `${field}.`)) found.add(inner);
    }
  }
  return [...found];
}

/** Every class of src/**\/*.dto.ts and *.params.ts that has a validation rule, by name. */
export function inputDtos(root = __dirname): Map<string, Type<unknown>> {
  const found = new Map<string, Type<unknown>>();
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) =>
    /\.(dto|params)\.ts$/.test(f),
  );
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- every DTO module, found at run time
    const loaded = require(join(root, file)) as Record<string, unknown>;
    for (const value of Object.values(loaded)) {
      if (typeof value !== 'function') continue;
      const dto = value as Type<unknown>;
      if (rulesOf(dto).length > 0) found.set(dto.name, dto);
    }
  }
  return found;
}

/** Own keys in order, each value described; prototypes by name; numbers exactly (-0, NaN). */
export function describeValue(value: unknown, depth = 0): unknown {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : `${value}`;
  if (typeof value !== 'object' || value === null || depth > 8) return value;
  const proto: unknown = Object.getPrototypeOf(value);
  const kind =
    proto === null
      ? 'null'
      : ((proto as { constructor?: { name?: string } }).constructor?.name ?? '?');
  const own = Reflect.ownKeys(value).map((key) => [
    String(key),
    describeValue((value as Record<PropertyKey, unknown>)[key], depth + 1),
    Object.getOwnPropertyDescriptor(value, key)?.enumerable,
  ]);
  return { kind, own };
}

/**
 * A DomainError as the problem-details filter would send it; any other error by name and message
 * (not `instanceof`: an error thrown in an ES module of Nest's is another realm's under Jest).
 */
export function describeError(error: unknown): unknown {
  if (typeof error !== 'object' || error === null) return { thrown: describeValue(error) };
  const { name, message, code, detail, errors, headers } = error as Record<string, unknown>;
  return { name, message, json: JSON.stringify({ code, detail, errors, headers }) };
}

export interface Outcome {
  result?: unknown;
  error?: unknown;
  /** The input after the pipe: Nest's walks change it in place. */
  inputAfter: unknown;
}

/** What `pipe` made of a fresh copy of the value. */
export async function outcomeOf(
  pipe: PipeTransform,
  make: () => unknown,
  metadata: ArgumentMetadata,
): Promise<Outcome> {
  const input = make();
  try {
    const result = describeValue(await pipe.transform(input, metadata));
    return { result, inputAfter: describeValue(input) };
  } catch (error) {
    return { error: describeError(error), inputAfter: describeValue(input) };
  }
}

/**
 * A fresh copy in this realm (structuredClone's objects are the outer realm's under Jest, which
 * the pipe would not take for plain objects), keys set as JSON.parse and the query parser set
 * them: own data properties, `__proto__` too.
 */
export function copy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copy);
  if (typeof value !== 'object' || value === null) return value;
  const nullProto = Object.getPrototypeOf(value) === null;
  return build(
    Object.entries(value).map(([k, v]) => [k, copy(v)]),
    nullProto,
  );
}

function build(entries: [string, unknown][], nullProto: boolean): Record<string, unknown> {
  const target = (nullProto ? Object.create(null) : {}) as Record<string, unknown>;
  for (const [key, value] of entries) {
    Object.defineProperty(target, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return target;
}

const scalar = fc.oneof(
  fc.constantFrom('', ' ', '  padded  ', 'x', '0', '1', '50', '201', '-1', '1.5', '1e2', 'abc'),
  fc.constantFrom('plans', 'bad source!', 'a@b.co', 'NOT AN EMAIL', 'sensor-0042', 'EC', 'P-256'),
  fc.constantFrom('true', 'false', 'sig', 'x'.repeat(500), 'x'.repeat(5000), '\u0000', '\uD800'),
  fc.string({ maxLength: 12 }),
  fc.constantFrom(0, 1, -1, 1.5, 50, 200, 201, 1e21, -0, true, false, null),
);
const anyValue = fc.oneof(
  { weight: 6, arbitrary: scalar },
  { weight: 1, arbitrary: fc.array(scalar, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.constantFrom('a', 'kty', 'constructor'), scalar) },
);
const strangeKeys = ['extra', 'toString', 'valueOf', 'hasOwnProperty', '__proto__', 'constructor'];

/** Values a body or query for `dto` could be: its own keys mostly, some strangers, any values. */
export function valuesFor(dto: Type<unknown>): fc.Arbitrary<{ make: () => unknown; text: string }> {
  const names = [...new Set(rulesOf(dto).map((rule) => rule.propertyName))];
  const key = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...names) },
    { weight: 1, arbitrary: fc.constantFrom(...strangeKeys, 'prototype') },
  );
  const entries = fc.uniqueArray(fc.tuple(key, anyValue), {
    selector: ([k]) => k,
    maxLength: names.length + 2,
  });
  const shaped = fc.tuple(entries, fc.boolean()).map(([list, nullProto]) => ({
    make: () => build(copy(list) as [string, unknown][], nullProto),
    text: `${nullProto ? 'null-proto ' : ''}${JSON.stringify(list)}`,
  }));
  const other = fc.constantFrom<[string, () => unknown]>(
    ['undefined', () => undefined],
    ['null', () => null],
    ['text', () => 'text'],
    ['5', () => 5],
    ['[]', () => []],
    ['[{}]', () => [{}]],
    ['Buffer', () => Buffer.from('{}')],
  );
  return fc.oneof(
    { weight: 12, arbitrary: shaped },
    { weight: 1, arbitrary: other.map(([text, make]) => ({ make, text })) },
  );
}
