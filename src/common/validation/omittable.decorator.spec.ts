import { IsOptional, IsString, validate } from 'class-validator';
import { IsOmittable } from './omittable.decorator';

class Omittable {
  @IsOmittable() @IsString() name?: string | null;
}
class Optional {
  @IsOptional() @IsString() name?: string | null;
}

const messages = async (target: object) =>
  (await validate(target)).flatMap((e) => Object.values(e.constraints ?? {}));

describe('IsOmittable', () => {
  it('skips the rules of a field left out, and runs them on null (unlike IsOptional)', async () => {
    const of = <T extends object>(cls: new () => T, name?: string | null) =>
      Object.assign(new cls(), name === undefined ? {} : { name });
    expect(await messages(of(Omittable))).toEqual([]);
    expect(await messages(of(Omittable, 'Pat'))).toEqual([]);
    expect(await messages(of(Omittable, null))).toEqual(['name must be a string']);
    // The hole it closes: class-validator's own lets null through unchecked.
    expect(await messages(of(Optional, null))).toEqual([]);
  });
});
