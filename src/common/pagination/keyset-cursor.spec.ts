import {
  CURSOR_FIELD,
  cursorReader,
  decodeKeysetCursor,
  encodeKeysetCursor,
} from './keyset-cursor';

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

describe('cursor fields', () => {
  it("takes a time only in the lists' own microsecond shape, and one PostgreSQL takes", () => {
    for (const at of [
      '2026-11-23T08:52:23.123456Z',
      '0001-01-01T00:00:00.000000Z',
      '9999-12-31T23:59:59.999999Z',
      '2028-02-29T00:00:00.000000Z',
    ]) {
      expect(CURSOR_FIELD.time(at)).toBe(true);
    }
    // Each of these Date.parse accepts (or nearly); PostgreSQL refuses the first group.
    for (const at of [
      '2026',
      '1',
      '2026-02-30T00:00:00.000000Z',
      '2027-02-29T00:00:00.000000Z',
      '0000-01-01T00:00:00.000000Z',
      '+275760-09-13T00:00:00.000000Z',
      '275760-09-13T00:00:00.000000Z',
      '2026-01-01T24:00:00.000000Z',
      '2026-13-01T00:00:00.000000Z',
      '2026-11-23T08:52:60.000000Z',
      '2026-11-23T08:52:23.123Z',
      '2026-11-23T08:52:23.123456',
      '2026-11-23T08:52:23.123456+01:00',
      '2026-11-23 08:52:23.123456Z',
      ' 2026-11-23T08:52:23.123456Z',
      '２０２６-11-23T08:52:23.123456Z',
      5,
      null,
    ]) {
      expect(CURSOR_FIELD.time(at)).toBe(false);
    }
  });

  it('takes a uuid in any case; text without NUL or a lone surrogate', () => {
    expect(CURSOR_FIELD.uuid('7A0E3F8E-0000-4000-8000-000000000001')).toBe(true);
    expect(CURSOR_FIELD.uuid('7a0e3f8e-0000-4000-8000-00000000000')).toBe(false);
    expect(CURSOR_FIELD.text('Ünïcode Org')).toBe(true);
    expect(CURSOR_FIELD.text('a\u0000b')).toBe(false);
    expect(CURSOR_FIELD.text('a\ud800')).toBe(false);
  });

  it('reads the listed keys only, each by its check', () => {
    const read = cursorReader({ at: CURSOR_FIELD.time, id: CURSOR_FIELD.uuid });
    const position = {
      at: '2026-11-23T08:52:23.123456Z',
      id: '7a0e3f8e-0000-4000-8000-000000000001',
    };
    expect(read({ v: 1, ...position, extra: 'x' })).toEqual(position);
    expect(read({ v: 1, at: position.at })).toBeUndefined();
    expect(read({ v: 1, ...position, at: '2026' })).toBeUndefined();
  });
});
