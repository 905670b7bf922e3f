import { parseUuid } from './uuid';

describe('parseUuid', () => {
  const id = '3f2c9a4e-8b1d-4c7e-9a5f-0b6d2e1c4a7b';

  it('gives a UUID in its stored, lower-case form', () => {
    expect(parseUuid(id)).toBe(id);
    expect(parseUuid(id.toUpperCase())).toBe(id);
    expect(parseUuid('3F2C9A4E-8b1d-4C7E-9a5f-0B6D2E1C4A7B')).toBe(id);
  });

  it.each([
    ['empty', ''],
    ['not hex', 'zz2c9a4e-8b1d-4c7e-9a5f-0b6d2e1c4a7b'],
    ['no dashes', '3f2c9a4e8b1d4c7e9a5f0b6d2e1c4a7b'],
    ['too long', `${id}0`],
    ['padded', ` ${id}`],
    ['braces', `{${id}}`],
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['an array', [id]],
  ])('refuses %s', (_name, value) => {
    expect(parseUuid(value)).toBeUndefined();
  });
});
