import { jsonBodyProblem, MAX_JSON_DEPTH } from './body-parsers';

const nested = (depth: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

describe('jsonBodyProblem', () => {
  it('lets ordinary bodies and scalars through', () => {
    expect(
      jsonBodyProblem({ email: 'a@b.c', tags: [1, { x: [2] }] }, MAX_JSON_DEPTH),
    ).toBeUndefined();
    expect(jsonBodyProblem('text', MAX_JSON_DEPTH)).toBeUndefined();
    expect(jsonBodyProblem(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBeUndefined();
    // A constructor key without a prototype inside is ordinary data.
    expect(jsonBodyProblem(JSON.parse('{"constructor":"x"}'), MAX_JSON_DEPTH)).toBeUndefined();
  });

  // Found by the reliability suite: 12 000 levels overflowed class-transformer's stack (a 500).
  it('catches deep nesting without recursing itself', () => {
    expect(jsonBodyProblem(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toMatch(/nested/);
    expect(jsonBodyProblem(nested(200_000), MAX_JSON_DEPTH)).toMatch(/nested/);
  });

  it('catches __proto__ and constructor.prototype keys at any depth, however spelled', () => {
    for (const text of [
      '{"__proto__":{"admin":true}}',
      '{"a":[{"\\u005f_proto__":{}}]}',
      '{"a":{"constructor":{"prototype":{"admin":true}}}}',
    ]) {
      expect(jsonBodyProblem(JSON.parse(text), MAX_JSON_DEPTH)).toMatch(/__proto__/);
    }
  });
});
