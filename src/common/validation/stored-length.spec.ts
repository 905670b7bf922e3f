import { IsOptional, validateSync } from 'class-validator';
import { MaxStoredLength, storedLength } from './stored-length';

class Coupon {
  @IsOptional()
  @MaxStoredLength(4, (value) => value.toLowerCase())
  code?: unknown;
}

const errorsOf = (code: unknown) =>
  validateSync(Object.assign(new Coupon(), { code })).flatMap((e) =>
    Object.values(e.constraints ?? {}),
  );

describe('storedLength', () => {
  it('counts code points, as PostgreSQL counts a varchar', () => {
    expect(storedLength('abc')).toBe(3);
    expect(storedLength('a\uFE0F')).toBe(2);
    expect(storedLength('😀')).toBe(1);
    expect(storedLength('İ'.toLowerCase())).toBe(2);
  });
});

describe('MaxStoredLength', () => {
  it('judges the value as stored: after the transform, in code points', () => {
    expect(errorsOf('ABCD')).toEqual([]);
    expect(errorsOf('İİ')).toEqual([]);
    expect(errorsOf('İİİ')).toEqual(['code must be shorter than or equal to 4 characters']);
    expect(errorsOf('a\uFE0Fa\uFE0Fa')).toEqual([
      'code must be shorter than or equal to 4 characters',
    ]);
    expect(errorsOf('😀😀😀😀')).toEqual([]);
  });

  it('refuses what is not a string, as MaxLength does', () => {
    expect(errorsOf(5)).toHaveLength(1);
  });
});
