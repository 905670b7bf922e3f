import type { ArgumentMetadata, Type as Class } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsNotEmpty, IsString, MaxLength, ValidateNested } from 'class-validator';
import { DomainError, FieldError } from '../errors/domain.error';
import { ErrorCode } from '../errors/error-code.enum';
import { AppValidationPipe } from './app-validation.pipe';
import { IsOmittable } from './omittable.decorator';

class KeyDto {
  @IsString() x!: string;
  @IsOmittable() @IsString() kid?: string;
}
class DeviceAuthDto {
  @IsString() @IsNotEmpty() device_id!: string;
  @IsString() @MaxLength(3) model!: string;
  @IsString() provider!: string;
}
class SetDevicePublicKeyDto {
  @ValidateNested() @Type(() => KeyDto) public_key!: KeyDto;
}
class ListDevicesDto {
  @IsOmittable() @Type(() => Number) @IsInt() limit?: number;
}

const pipe = new AppValidationPipe();
const token = { device_id: 'sensor-1', model: 'hub', provider: 'acme' };
const jwk = { x: 'A'.repeat(43) };

/** The pipe's field errors for `value`, or undefined when it accepted the value. */
async function errorsOf(
  dto: Class<unknown>,
  value: unknown,
  type: ArgumentMetadata['type'] = 'body',
): Promise<FieldError[] | undefined> {
  try {
    await pipe.transform(value, { type, metatype: dto });
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    expect((error as DomainError).code).toBe(ErrorCode.ValidationFailed);
    return (error as DomainError).errors;
  }
}

/** As JSON.parse and the query parser set keys: own data properties, `__proto__` too. */
const parsed = (text: string): unknown => JSON.parse(text);
const query = (entries: [string, string][]): object => {
  const target = Object.create(null) as Record<string, string>;
  for (const [key, value] of entries) target[key] = value;
  return target;
};

describe('AppValidationPipe: keys named like Object.prototype members', () => {
  it('refuses an ordinary unknown key (the rule the others must follow)', async () => {
    expect(await errorsOf(DeviceAuthDto, { ...token, extra: 1 })).toEqual([
      { field: 'extra', message: 'property extra should not exist' },
    ]);
  });

  it.each(['toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'constructor', 'prototype'])(
    'refuses %s in a body as it refuses any unknown key',
    async (key) => {
      const body = parsed(JSON.stringify({ ...token, [key]: 'x' }));
      expect(await errorsOf(DeviceAuthDto, body)).toEqual([
        { field: key, message: `property ${key} should not exist` },
      ]);
    },
  );

  it('refuses them in a nested DTO, named by their path', async () => {
    const body = { public_key: { ...jwk, valueOf: 1 } };
    expect(await errorsOf(SetDevicePublicKeyDto, body)).toEqual([
      { field: 'public_key.valueOf', message: 'property valueOf should not exist' },
    ]);
  });

  it('refuses __proto__ and toString in a query', async () => {
    const value = query([
      ['limit', '5'],
      ['__proto__', 'x'],
      ['toString', 'y'],
    ]);
    expect(await errorsOf(ListDevicesDto, value, 'query')).toEqual([
      { field: '__proto__', message: 'property __proto__ should not exist' },
      { field: 'toString', message: 'property toString should not exist' },
    ]);
  });

  it('keeps the other errors of the value beside them', async () => {
    const errors = await errorsOf(DeviceAuthDto, { ...token, model: 5, toString: 'x', extra: 1 });
    const fields = new Set(errors?.map((e) => e.field));
    expect([...fields].sort()).toEqual(['extra', 'model', 'toString']);
  });

  it('still accepts a value without them', async () => {
    expect(await errorsOf(DeviceAuthDto, { ...token })).toBeUndefined();
  });
});
