import { cleanAllText } from '../common/validation/storable-text';
import { readSignedBody } from './signed-body';

const valueOf = (raw: Buffer | string): unknown => {
  const body = readSignedBody(Buffer.isBuffer(raw) ? raw : Buffer.from(raw));
  if (!('value' in body)) throw new Error(body.problem);
  return body.value;
};

/** Fast path or walk, the answer is the walk's: the same JSON, key order and own keys included. */
const expectAsWalked = (raw: string) =>
  expect(JSON.stringify(valueOf(raw))).toBe(JSON.stringify(cleanAllText(JSON.parse(raw))));

describe('readSignedBody', () => {
  it.each([
    ['a clean event', '{"id":"evt_1","type":"x","data":{"object":{"name":"Dana 😀"}}}'],
    ['an escaped backslash before u0000', '{"a":"\\\\u0000"}'],
    ['an escaped backslash, then a real NUL escape', '{"a":"\\\\\\u0000"}'],
    ['a valid surrogate pair as escapes', '{"a":"\\ud83d\\ude00"}'],
    ['a lone lead surrogate', '{"a":"x\\ud83d"}'],
    ['a lone trail surrogate in a key', '{"\\ude00k":1}'],
    ['NUL in a key', '{"k\\u0000":"v"}'],
    ['a constructor without a prototype', '{"constructor":{"name":"x"}}'],
  ])('reads %s as the deep clean would', (_, raw) => {
    expectAsWalked(raw);
  });

  it('cleans NUL and lone surrogates, in keys and values', () => {
    expect(valueOf('{"a":"x\\u0000\\ud800","b\\udc00":["\\u0000"]}')).toEqual({
      a: 'x\uFFFD',
      'b\uFFFD': [''],
    });
  });

  it('drops __proto__ and constructor.prototype keys, also spelled with escapes', () => {
    for (const raw of [
      '{"__proto__":{"type":"x"},"a":1}',
      '{"\\u005f_proto__":{"type":"x"},"a":1}',
      '{"a":1,"constructor":{"prototype":{"type":"x"}}}',
      '{"a":1,"constructor":{"\\u0070rototype":{"type":"x"}}}',
    ]) {
      const value = valueOf(raw) as Record<string, unknown>;
      expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
      expect(Object.keys(value)).not.toContain('__proto__');
      expect(JSON.stringify(value)).not.toContain('prototype');
      expect(value.type).toBeUndefined();
    }
  });

  it('reads invalid UTF-8 as U+FFFD, which is storable', () => {
    const raw = Buffer.concat([
      Buffer.from('{"a":"'),
      Buffer.from([0xed, 0xa0, 0x80, 0xff]),
      Buffer.from('"}'),
    ]);
    expect(valueOf(raw)).toEqual({ a: '\uFFFD\uFFFD\uFFFD\uFFFD' });
  });

  it('still refuses what is not JSON or nests too deep', () => {
    expect(readSignedBody(Buffer.from('{"a":'))).toEqual({ problem: expect.any(String) });
    const deep = `${'['.repeat(40)}${']'.repeat(40)}`;
    expect(readSignedBody(Buffer.from(deep))).toEqual({ problem: expect.any(String) });
    // At the limit, and wide: many brackets, none deep.
    expect(readSignedBody(Buffer.from(`${'['.repeat(32)}${']'.repeat(32)}`))).toHaveProperty(
      'value',
    );
    const wide = JSON.stringify(Array.from({ length: 50 }, () => ({ a: [] })));
    expect(readSignedBody(Buffer.from(wide))).toHaveProperty('value');
  });
});
