import { jsonDepthExceeds, MAX_JSON_DEPTH } from './body-parsers';

const nested = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

describe('jsonDepthExceeds', () => {
  it('lets ordinary bodies and scalars through', () => {
    expect(jsonDepthExceeds({ email: 'a@b.c', tags: [1, { x: [2] }] }, MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthExceeds('text', MAX_JSON_DEPTH)).toBe(false);
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
  });

  // Found by the reliability suite: 12 000 levels overflowed class-transformer's stack (a 500).
  it('catches deep nesting without recursing itself', () => {
    expect(jsonDepthExceeds(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
    expect(jsonDepthExceeds(nested(200_000), MAX_JSON_DEPTH)).toBe(true);
  });
});
