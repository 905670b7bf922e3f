import fc from 'fast-check';
import { cleanAllText } from './storable-text';
import { parsesToStorableText } from './storable-json-text';

/** The fast path's promise: when it answers true, the walk would have changed nothing. */
function expectFastPathSound(text: string): boolean {
  const fast = parsesToStorableText(text);
  if (fast) {
    // As JSON: key order, every string's exact units and every own key (`__proto__` too) count,
    // and Jest's equality would read an own `constructor` key as the object's class.
    const parsed: unknown = JSON.parse(text);
    expect(JSON.stringify(cleanAllText(parsed))).toBe(JSON.stringify(parsed));
  }
  return fast;
}

describe('parsesToStorableText', () => {
  it('is true for clean text: astral characters, escapes of quotes, controls and HTML', () => {
    for (const text of [
      '{"a":"plain","b":[1,true,null,{"c":"😀 𝄞 é"}]}',
      '{"q":"say \\"hi\\"\\n\\t\\\\ \\/","html":"\\u003cb\\u003e \\u0026 \\u2028 \\u0001"}',
      '{"constructor":{"name":"x"}}',
      '"just a string"',
      '42',
    ]) {
      expect(expectFastPathSound(text)).toBe(true);
    }
  });

  it('takes a valid surrogate pair spelled as escapes, not a lone one, lead or trail', () => {
    expect(expectFastPathSound('{"e":"\\ud83d\\ude00"}')).toBe(true);
    expect(expectFastPathSound('{"e":"\\ud83d\\ude00\\ud83d\\ude00"}')).toBe(true);
    for (const text of [
      '{"e":"\\ud83d"}',
      '{"e":"\\ud83dx"}',
      '{"e":"\\ude00"}',
      '{"e":"\\ud83d\\ud83d\\ude00"}',
      '{"e":"\\ude00\\ud83d"}',
      // The trail's backslash is itself escaped: a lone lead, then text.
      '{"e":"\\ud83d\\\\ude00"}',
      '{"\\ud800":1}',
    ]) {
      expect(expectFastPathSound(text)).toBe(false);
    }
  });

  it('refuses NUL spelled as an escape, in a value or a key, and never an escaped backslash', () => {
    expect(expectFastPathSound('{"a":"x\\u0000y"}')).toBe(false);
    expect(expectFastPathSound('{"k\\u0000":1}')).toBe(false);
    expect(expectFastPathSound('{"a":"\\\\\\u0000"}')).toBe(false);
    // A backslash, then the text u0000: nothing to clean.
    expect(expectFastPathSound('{"a":"\\\\u0000","\\\\ud800":"\\\\"}')).toBe(true);
  });

  it('leaves text that spells a prototype key, literally or through escapes, to the walk', () => {
    for (const text of [
      '{"__proto__":{"type":"x"}}',
      '{"a":{"constructor":{"prototype":{}}}}',
      '{"\\u005f_proto__":{}}',
      '{"constructor":{"\\u0070rototype":{}}}',
      '{"constructor":{"proto\\u0000type":{}}}',
      // Only as a value: harmless, but the words are not worth telling apart from keys.
      '{"note":"the prototype"}',
    ]) {
      expect(expectFastPathSound(text)).toBe(false);
    }
  });

  it('answers for the text as decoded: bad UTF-8 is U+FFFD, never a lone surrogate', () => {
    // A lone lead surrogate as UTF-8 (CESU), a stray continuation byte, a truncated sequence.
    const raw = Buffer.concat([
      Buffer.from('{"a":"'),
      Buffer.from([0xed, 0xa0, 0x80, 0x80, 0xe2, 0x82]),
      Buffer.from('"}'),
    ]);
    const text = raw.toString('utf8');
    expect(text.isWellFormed()).toBe(true);
    expect(expectFastPathSound(text)).toBe(true);
    // A text that is not from a decoder is judged as it is.
    expect(parsesToStorableText('{"a":"\uD800"}')).toBe(false);
  });

  it('never answers true where the walk would change something, for any JSON of any strings', () => {
    const anyText = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.constantFrom('\u0000', '\uD800', '\uDC00', '😀', '__proto__', 'prototype', 'constructor'),
    );
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        anyText,
        fc.integer(),
        fc.constant(null),
        fc.array(tie('value'), { maxLength: 4 }),
        fc.dictionary(anyText, tie('value'), { maxKeys: 4 }),
      ),
    })).value;
    // JSON.stringify escapes lone surrogates (well-formed JSON.stringify), as a processor would;
    // the ASCII-only variant escapes everything else too.
    const asciiOnly = (s: string) =>
      s.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    fc.assert(
      fc.property(json, (value) => {
        const text = JSON.stringify(value);
        expectFastPathSound(text);
        expectFastPathSound(asciiOnly(text));
      }),
      { numRuns: 2000 },
    );
  });
});
