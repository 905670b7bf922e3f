import { decodeKeysetCursor, encodeKeysetCursor } from './keyset-cursor';

const readName = ({ name }: Record<string, unknown>) =>
  typeof name === 'string' ? { name } : undefined;

describe('keyset cursor', () => {
  it('round-trips a position, URL-safe', () => {
    const cursor = encodeKeysetCursor({ name: 'Ünïcode / + = Org' });
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeKeysetCursor(cursor, readName)).toEqual({ name: 'Ünïcode / + = Org' });
  });

  it('refuses what is not one of ours: other text, JSON of another shape or version', () => {
    const b64 = (value: string) => Buffer.from(value, 'utf8').toString('base64url');
    for (const cursor of [
      '',
      'not a cursor!',
      'x'.repeat(401),
      b64('not json'),
      b64('[1,2]'),
      b64('null'),
      b64(JSON.stringify({ v: 2, name: 'a' })),
      b64(JSON.stringify({ v: 1, name: 5 })),
    ]) {
      expect(decodeKeysetCursor(cursor, readName)).toBeUndefined();
    }
  });
});
