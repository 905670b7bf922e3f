import {
  getMetadataStorage,
  IsInt,
  IsNotEmpty,
  IsString,
  MaxLength,
  validateSync,
} from 'class-validator';
import { cacheValidationRules } from './validation-rules.cache';

class Base {
  @IsString() @MaxLength(3) a!: unknown;
}
class Child extends Base {
  @IsInt() b!: unknown;
}

function errorsOf(value: object): Record<string, string[]> {
  const errors = validateSync(value, { whitelist: true, forbidNonWhitelisted: true });
  return Object.fromEntries(errors.map((e) => [e.property, Object.keys(e.constraints ?? {})]));
}

describe('cacheValidationRules', () => {
  const child = () => Object.assign(new Child(), { a: 'long', b: 'x', c: 1 });
  const uncached = errorsOf(child());

  beforeAll(() => cacheValidationRules());

  it('answers as class-validator does, inherited rules and the whitelist included', () => {
    expect(uncached).toEqual({
      a: ['maxLength'],
      b: ['isInt'],
      c: ['whitelistValidation'],
    });
    expect(errorsOf(child())).toEqual(uncached);
    expect(errorsOf(Object.assign(new Child(), { a: 'ok', b: 1 }))).toEqual({});
  });

  it('looks the rules up once per class', () => {
    const storage = getMetadataStorage();
    const lookUp = () => storage.getTargetValidationMetadatas(Child, '', false, false);
    expect(lookUp()).toBe(lookUp());
    expect(storage.groupByPropertyName(lookUp())).toBe(storage.groupByPropertyName(lookUp()));
  });

  it('sees a rule registered after the first lookup', () => {
    errorsOf(child());
    IsNotEmpty()(Child.prototype, 'c');
    expect(errorsOf(child())).toEqual({ a: ['maxLength'], b: ['isInt'] });
    expect(errorsOf(Object.assign(new Child(), { a: 'ok', b: 1, c: '' }))).toEqual({
      c: ['isNotEmpty'],
    });
  });

  it('is installed once (a second call keeps the answers kept so far)', () => {
    const storage = getMetadataStorage();
    const lookUp = () => storage.getTargetValidationMetadatas(Child, '', false, false);
    const kept = lookUp();
    cacheValidationRules();
    expect(lookUp()).toBe(kept);
  });
});
