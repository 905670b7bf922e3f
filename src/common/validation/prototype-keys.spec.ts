import { reachesPrototype } from './prototype-keys';

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
});
