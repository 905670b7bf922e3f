import { FieldError } from '../errors/domain.error';
import { reachesPrototype } from './prototype-keys';

/**
 * What a JSON string can carry but the database cannot keep. PostgreSQL `text` refuses NUL (a
 * 500 before this check), and a lone surrogate is not Unicode: `pg` would silently store U+FFFD,
 * so the value read back would not be the value sent.
 */
export function unstorableReason(value: string): string | undefined {
  if (value.includes('\0')) return 'must not contain the NUL character (U+0000)';
  if (!value.isWellFormed()) return 'must be well-formed Unicode (it has an unpaired surrogate)';
  return undefined;
}

/** The same rule, made to hold instead of refused: for signed input we must accept (webhook events). */
export function cleanText(value: string): string {
  return value.replaceAll('\0', '').toWellFormed();
}

type Visit = [value: unknown, path: string];

function childPath(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/**
 * Every string in a parsed body, query or path value (keys included) that cannot be stored, as
 * field errors named like the validator names them (`a.b.0`). Iterative: depth is bounded by the
 * body parser, but a wide body must not cost recursion either.
 */
export function findUnstorableText(root: unknown, rootPath = ''): FieldError[] {
  // Nearly every value is clean: proved without a path or a pair per key, named only when not.
  if (!holdsUnstorableText(root)) return [];
  const errors: FieldError[] = [];
  const stack: Visit[] = [[root, rootPath]];
  while (stack.length > 0) {
    const [value, path] = stack.pop()!;
    if (typeof value === 'string') {
      const reason = unstorableReason(value);
      if (reason) errors.push({ field: path || 'body', message: `${path || 'body'} ${reason}` });
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      const keyReason = unstorableReason(key);
      if (keyReason) {
        const field = childPath(path, cleanText(key));
        errors.push({ field, message: `a field name ${keyReason}` });
        continue;
      }
      stack.push([child, childPath(path, key)]);
    }
  }
  return errors.reverse();
}

/** True when some string (or key) at any depth is one `unstorableReason` refuses; iterative. */
function holdsUnstorableText(root: unknown): boolean {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') {
      if (unstorableReason(value)) return true;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      if (unstorableReason(key)) return true;
      stack.push(record[key]);
    }
  }
  return false;
}

/**
 * A deep copy with every string (and key) cleaned by `cleanText`, other values kept as they are,
 * and keys that reach a prototype dropped (prototype-keys.ts: `__proto__`, assigned to the copy,
 * would become its prototype). Iterative, so a deeply nested value cannot overflow the stack.
 */
export function cleanAllText<T>(value: T): T {
  const root: { v?: unknown } = {};
  const stack: [source: unknown, target: Record<string, unknown>, key: string][] = [
    [value, root, 'v'],
  ];
  while (stack.length > 0) {
    const [source, target, key] = stack.pop()!;
    if (typeof source === 'string') {
      target[key] = cleanText(source);
    } else if (typeof source !== 'object' || source === null) {
      target[key] = source;
    } else {
      const copy = (Array.isArray(source) ? [] : {}) as Record<string, unknown>;
      target[key] = copy;
      // Reversed, so the copy's keys are set in the source's order.
      for (const [childKey, child] of Object.entries(source).reverse()) {
        const cleanKey = cleanText(childKey);
        // Judged on the cleaned keys, with the parent's (see reachesPrototype).
        if (!reachesPrototype(cleanKey, child, key)) stack.push([child, copy, cleanKey]);
      }
    }
  }
  return root.v as T;
}
