/**
 * The processor's v1 form body (`line_items[0][price]=…&…`), byte for byte as the Stripe SDK
 * encodes it (its `stringifyRequestData` in `stripe/cjs/utils.js`), for less: the SDK runs
 * `encodeURIComponent` and seven regular-expression replacements over every key and every value,
 * about 83 KB allocated for one checkout session (bench/findings.md). Here a key or value that
 * none of those steps would change is used as it is, the others take one pass, and the parts the
 * caller marks constant (the custom fields) are encoded once. Handed to the SDK as its resource's
 * `requestDataProcessor`, so the SDK still sends, retries and answers the call.
 */

/** What encodeURIComponent leaves alone, less the `!'()*` the SDK escapes, plus `[` and `]`. */
const PLAIN = /^[\w.~[\]-]*$/;
/** The SDK's replacements after encodeURIComponent; none can make text another one matches. */
const REPLACED = /[!'()*]|%5B|%5D/g;
const REPLACEMENT: Record<string, string> = {
  '!': '%21',
  "'": '%27',
  '(': '%28',
  ')': '%29',
  '*': '%2A',
  '%5B': '[',
  '%5D': ']',
};

/** A key or value as the SDK's `encodeQueryValue` writes it. */
export function encodeFormText(text: string): string {
  if (PLAIN.test(text)) return text;
  return encodeURIComponent(text).replace(REPLACED, (m) => REPLACEMENT[m]);
}

/** What is not an object in a request's parameters. */
type FormScalar = string | number | boolean | bigint | null | Date;

/** The SDK's `valueToString`: a Date as Unix seconds, null as nothing. */
function formValue(value: FormScalar): string {
  if (value instanceof Date) return Math.floor(value.getTime() / 1000).toString();
  return value === null ? '' : String(value);
}

/** Parts marked constant, deep-frozen: by prefix, their pairs joined (computed once). */
const constants = new WeakMap<object, Map<string, string>>();

/**
 * Deep-freezes a part of some request's parameters and marks it constant, so its pairs are
 * encoded once per key it is sent under. A Date inside could still change: refused.
 */
export function constantFormPart<T extends object>(part: T): T {
  for (const value of Object.values(part)) {
    if (value instanceof Date) throw new Error('A constant form part cannot hold a Date');
    if (value !== null && typeof value === 'object') constantFormPart(value);
  }
  constants.set(Object.freeze(part), new Map());
  return part;
}

function appendPairs(key: string, value: unknown, out: string[]): void {
  if (value === undefined) return;
  if (value === null || typeof value !== 'object' || value instanceof Date) {
    out.push(`${encodeFormText(key)}=${encodeFormText(formValue(value as FormScalar))}`);
    return;
  }
  const known = constants.get(value);
  if (!known) return appendNested(key, value, out);
  let joined = known.get(key);
  if (joined === undefined) {
    const pairs: string[] = [];
    appendNested(key, value, pairs);
    joined = pairs.join('&');
    known.set(key, joined);
  }
  if (joined) out.push(joined);
}

function appendNested(key: string, value: object, out: string[]): void {
  if (Array.isArray(value)) {
    value.forEach((item, i) => appendPairs(`${key}[${i}]`, item, out));
  } else {
    const fields = value as Record<string, unknown>;
    for (const k of Object.keys(fields)) appendPairs(`${key}[${k}]`, fields[k], out);
  }
}

/** The form body of a request's parameters (none: the empty body). */
export function formBody(data: object | null | undefined): string {
  const out: string[] = [];
  const fields = (data ?? {}) as Record<string, unknown>;
  for (const key of Object.keys(fields)) appendPairs(key, fields[key], out);
  return out.join('&');
}
