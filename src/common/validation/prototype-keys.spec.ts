import { findPrototypeNamedKeys, PROTOTYPE_KEY_WORDS, reachesPrototype } from './prototype-keys';

describe('reachesPrototype', () => {
  it('is __proto__ always, constructor only with its own prototype', () => {
    expect(reachesPrototype('__proto__', 1)).toBe(true);
    expect(reachesPrototype('constructor', JSON.parse('{"prototype":{}}'))).toBe(true);
    expect(reachesPrototype('constructor', 'x')).toBe(false);
    expect(reachesPrototype('constructor', { name: 'x' })).toBe(false);
    expect(reachesPrototype('constructor', null)).toBe(false);
    expect(reachesPrototype('prototype', {})).toBe(false);
  });

  it('is prototype under a constructor, for a walk that judges keys as it cleans them', () => {
    expect(reachesPrototype('prototype', {}, 'constructor')).toBe(true);
    expect(reachesPrototype('prototype', {}, 'other')).toBe(false);
  });

  it('is true only where a key or what it holds spells one of the words the fast path looks for', () => {
    const spells = (key: string, value: unknown) =>
      PROTOTYPE_KEY_WORDS.some((w) => `${key} ${JSON.stringify(value)}`.includes(w));
    const cases: [string, unknown, string?][] = [
      ['__proto__', 1],
      ['constructor', { prototype: {} }],
      ['prototype', {}, 'constructor'],
      ['constructor', { name: 'x' }],
      ['proto', {}, 'constructor'],
    ];
    for (const [key, value, parent] of cases) {
      if (reachesPrototype(key, value, parent)) expect(spells(key, value)).toBe(true);
    }
  });
});

describe('findPrototypeNamedKeys', () => {
  it('names every key like an Object.prototype member, at any depth, in the order they came', () => {
    const value = JSON.parse(
      '{"a":[{"toString":1},{"ok":{"valueOf":2}}],"constructor":"x","prototype":{},"b":"__proto__"}',
    ) as unknown;
    expect(findPrototypeNamedKeys(value).map((e) => e.field)).toEqual([
      'constructor',
      'prototype',
      'a.0.toString',
      'a.1.ok.valueOf',
    ]);
    expect(findPrototypeNamedKeys({ a: { b: ['toString'] }, c: 'valueOf' })).toEqual([]);
  });

  it('looks into no other object than a plain one or an array', () => {
    expect(findPrototypeNamedKeys(new Date())).toEqual([]);
    expect(findPrototypeNamedKeys(Object.assign(Object.create(null), { toString: 1 }))).toEqual([
      { field: 'toString', message: 'property toString should not exist' },
    ]);
  });
});
