import { cleanAllText, cleanText, findUnstorableText, unstorableReason } from './storable-text';

describe('storable text', () => {
  it('accepts any well-formed text without NUL, astral and control characters included', () => {
    for (const s of [
      '',
      'plain',
      '\u0001\u001f\u007f',
      '😀 𝄞',
      '\uFFFF\uFDD0',
      'x'.repeat(10_000),
    ]) {
      expect(unstorableReason(s)).toBeUndefined();
    }
  });

  it('refuses NUL and unpaired surrogates, lead or trail', () => {
    for (const s of ['a\u0000b', '\uD800', 'x\uDC00y', '\uDBFF\uDBFF']) {
      expect(unstorableReason(s)).toEqual(expect.any(String));
    }
  });

  it('names every bad string by its path, keys included, in body order', () => {
    const body = { name: 'a\u0000', nested: { list: ['ok', '\uD800'] }, ['k\u0000']: 1, n: 5 };
    expect(findUnstorableText(body).map((e) => e.field)).toEqual(['name', 'nested.list.1', 'k']);
    expect(findUnstorableText('\uDC00', 'device_id')).toEqual([
      { field: 'device_id', message: expect.stringContaining('device_id') },
    ]);
    expect(findUnstorableText({ fine: ['x', 1, null, true] })).toEqual([]);
  });

  it('cleans instead of refusing, deep, keys included, other values untouched', () => {
    expect(cleanText('a\u0000b\uD800')).toBe('ab\uFFFD');
    const cleaned = cleanAllText({ a: ['\u0000x', 2, null], ['b\uDC00']: { c: false } });
    expect(cleaned).toEqual({ a: ['x', 2, null], ['b\uFFFD']: { c: false } });
    expect(findUnstorableText(cleaned)).toEqual([]);
  });

  it('drops the keys the body parser refuses, so none becomes the prototype of the copy', () => {
    const cleaned = cleanAllText(
      JSON.parse(
        '{"__proto__":{"type":"x"},"a":{"constructor":{"prototype":{}},"b":1},"c":{"constructor":"x"}}',
      ),
    ) as Record<string, unknown>;
    expect(Object.getPrototypeOf(cleaned)).toBe(Object.prototype);
    expect(cleaned.type).toBeUndefined();
    // A constructor without a prototype inside is data, as jsonBodyProblem lets it through.
    expect(cleaned).toEqual({ a: { b: 1 }, c: { constructor: 'x' } });
  });

  it('judges the cleaned keys: a prototype spelled with a control character is dropped too', () => {
    const cleaned = cleanAllText(
      JSON.parse(
        '{"constructor":{"proto\\u0000type":{"polluted":true}},"__pro\\u0000to__":{"x":1}}',
      ),
    ) as Record<string, unknown>;
    expect(cleaned).toEqual({ constructor: {} });
    expect(Object.getPrototypeOf(cleaned)).toBe(Object.prototype);
  });

  it('copies a value nested far deeper than the stack allows, keeping key order', () => {
    let deep: unknown = 'x\u0000';
    for (let i = 0; i < 100_000; i++) deep = { d: deep };
    expect(() => cleanAllText(deep)).not.toThrow();
    expect(Object.keys(cleanAllText({ z: 1, a: 2, m: [3, 4] }))).toEqual(['z', 'a', 'm']);
  });
});
