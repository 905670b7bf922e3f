import { ArgumentMetadata, Type as Class, ValidationPipe } from '@nestjs/common';
import { Exclude, Expose, Transform, Type } from 'class-transformer';
import fc from 'fast-check';
import { IsBoolean, IsInt, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { DeviceAuthDto } from './device/device-auth.dto';
import { ListDevicesDto } from './device/list-devices.dto';
import { AppValidationPipe } from './common/validation/app-validation.pipe';
import { BasePipe, copy, inputDtos, outcomeOf, valuesFor } from './input-dtos.test-data';

class WithDefaults {
  @IsOptional() @IsInt() count: number = 7;
  @IsOptional() @IsString() label?: string;
}
class WithAccessor {
  @IsOptional() @IsString() get shown(): string {
    return 'getter';
  }
}
// A rule on a name every object has (decorated by hand: the field would not type-check).
IsOptional()(WithAccessor.prototype, 'toString');
IsString()(WithAccessor.prototype, 'toString');
class Child extends WithDefaults {
  @IsString() @MaxLength(3) extra!: string;
}
@Exclude()
class ExposedOnly {
  @Expose() @IsOptional() @IsString() a?: string;
  @IsOptional() @IsString() b?: string;
}
class Renamed {
  @Expose({ name: 'wire' }) @IsOptional() @IsString() inner?: string;
}
class ToObject {
  @Transform(({ value }) => ({ wrapped: value as unknown }))
  @IsOptional()
  a?: unknown;
}
class Typed {
  @IsOptional() @Type(() => Number) @IsInt() n?: number;
  @IsOptional() @Type(() => String) @IsString() s?: string;
  @IsOptional() @Type(() => Boolean) @IsBoolean() b?: boolean;
  @IsOptional() @Type(() => Date) d?: Date;
  @IsOptional() @Type(() => WithDefaults) w?: unknown;
}
class Nested {
  @IsOptional() @ValidateNested() @Type(() => WithDefaults) inner?: WithDefaults;
}
const synthetic: Class<unknown>[] = [
  WithDefaults,
  WithAccessor,
  Child,
  ExposedOnly,
  Renamed,
  ToObject,
  Typed,
  Nested,
];

const pipe = new AppValidationPipe();
const base = new BasePipe();
const dtos = inputDtos();

/** Both pipes on the same value: the same instance (or error, byte for byte), the same input left. */
async function expectSame(dto: Class<unknown>, make: () => unknown, type: 'body' | 'query') {
  const metadata: ArgumentMetadata = { type, metatype: dto };
  expect(await outcomeOf(pipe, make, metadata)).toEqual(await outcomeOf(base, make, metadata));
}

describe('AppValidationPipe', () => {
  it('finds the DTOs it is compared on', () => {
    for (const name of ['DeviceAuthDto', 'ListDevicesDto', 'CreateCheckoutDto', 'CreateDeviceDto'])
      expect(dtos.has(name)).toBe(true);
  });

  it.each([...dtos.keys(), ...synthetic.map((c) => c.name)])(
    'answers as Nest’s ValidationPipe did for %s, bodies and queries of any shape',
    async (name) => {
      const dto = dtos.get(name) ?? synthetic.find((c) => c.name === name)!;
      await fc.assert(
        fc.asyncProperty(valuesFor(dto), fc.constantFrom('body', 'query'), async (v, type) => {
          await expectSame(dto, v.make, type);
        }),
        { numRuns: 300 },
      );
    },
  );

  it('gives the same 400 for the usual mistakes, with the same field list and messages', async () => {
    const token = dtos.get('DeviceAuthDto')!;
    const bodies: unknown[] = [
      {},
      { device_id: '', model: 5, provider: null },
      { device_id: 'x'.repeat(10_000), model: 'm', provider: 'p', other: 1 },
      { device_id: ['a'], model: { a: 1 }, provider: true, assertion: '' },
      JSON.parse('{"device_id":"a","device_id":"b","model":"m","provider":"p"}'),
      JSON.parse('{"device_id":"a","model":"m","provider":"p","constructor":"x"}'),
      JSON.parse('{"device_id":"a","model":"m","provider":"p","toString":"x","hasOwnProperty":1}'),
      JSON.parse('{"device_id":"\\ud800","model":"m\\u0000","provider":"p"}'),
    ];
    for (const body of bodies) await expectSame(token, () => copy(body), 'body');
    const list = dtos.get('ListDevicesDto')!;
    for (const query of [{}, { limit: '0' }, { limit: 'x' }, { limit: ['1', '2'] }, { cursor: '' }])
      await expectSame(list, () => copy(Object.assign(Object.create(null), query)), 'query');
  });

  it('takes the flat path for a plain body without calling Nest’s pipe', async () => {
    const spy = jest.spyOn(ValidationPipe.prototype, 'transform');
    try {
      const body = { device_id: 'd', model: 'm', provider: 'p' };
      const dto = await pipe.transform(body, { type: 'body', metatype: DeviceAuthDto });
      expect(dto).toBeInstanceOf(DeviceAuthDto);
      expect(dto).toEqual(Object.assign(new DeviceAuthDto(), body));
      const query = Object.assign(Object.create(null), { limit: '20' }) as object;
      const page = await pipe.transform(query, { type: 'query', metatype: ListDevicesDto });
      expect(page).toEqual(Object.assign(new ListDevicesDto(), { limit: 20 }));
      expect(spy).not.toHaveBeenCalled();
      // A nested value, or a DTO with nested rules, is still Nest's.
      await pipe.transform({ inner: {} }, { type: 'body', metatype: Nested });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
  });
});
