import { ArgumentMetadata, Type as Class, ValidationPipe } from '@nestjs/common';
import { Exclude, Expose, Transform, Type } from 'class-transformer';
import fc from 'fast-check';
import { IsBoolean, IsInt, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';
import { DomainError, FieldError } from './common/errors/domain.error';
import { ErrorCode } from './common/errors/error-code.enum';
import { AppValidationPipe, VALIDATION_OPTIONS } from './common/validation/app-validation.pipe';
import { findPrototypeNamedKeys } from './common/validation/prototype-keys';
import { findUnstorableText } from './common/validation/storable-text';
import {
  copy,
  describeError,
  describeValue,
  inputDtos,
  outcomeOf,
  optionalFields,
  valuesFor,
} from './input-dtos.test-data';

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
const nest = new ValidationPipe({ ...VALIDATION_OPTIONS });
const dtos = inputDtos();

const invalid = (errors: FieldError[]) =>
  describeError(
    new DomainError(
      ErrorCode.ValidationFailed,
      'The request is not valid; see errors for each field.',
      errors,
    ),
  );

/**
 * Our pipe against Nest's own with the same options, on the same value: the same instance (or
 * error, byte for byte) and the same input left, except where ours adds a rule. A Buffer passes
 * as it is; text that cannot be stored is refused before Nest's pipe runs; keys named like
 * Object.prototype members are refused first, with every error Nest's pipe finds after them.
 */
async function expectSame(dto: Class<unknown>, make: () => unknown, type: 'body' | 'query') {
  const metadata: ArgumentMetadata = { type, metatype: dto };
  const ours = await outcomeOf(pipe, make, metadata);
  const theirs = await outcomeOf(nest, make, metadata);
  const input = make();
  if (Buffer.isBuffer(input)) {
    expect(ours).toEqual({ result: describeValue(input), inputAfter: describeValue(input) });
    return;
  }
  const unstorable = findUnstorableText(input, '');
  if (unstorable.length > 0) {
    expect(ours).toEqual({ error: invalid(unstorable), inputAfter: describeValue(input) });
    return;
  }
  const unknown = findPrototypeNamedKeys(input);
  // Where Nest's pipe accepts the value or refuses it as not valid; any other error it throws
  // (a DTO's transform failing on a prototype-less object) ours throws the same.
  const refused = (theirs.error as { json?: string } | undefined)?.json;
  const found = refused ? (JSON.parse(refused) as { code?: string; errors?: FieldError[] }) : {};
  if (unknown.length > 0 && (!theirs.error || found.code === ErrorCode.ValidationFailed)) {
    const others = found.errors ?? [];
    expect(ours).toEqual({
      error: invalid([...unknown, ...others]),
      inputAfter: theirs.inputAfter,
    });
    return;
  }
  expect(ours).toEqual(theirs);
}

describe('AppValidationPipe against Nest’s own ValidationPipe', () => {
  it('finds the DTOs it is compared on', () => {
    for (const name of ['DeviceAuthDto', 'ListDevicesDto', 'CreateCheckoutDto', 'CreateDeviceDto'])
      expect(dtos.has(name)).toBe(true);
  });

  it.each([...dtos.keys(), ...synthetic.map((c) => c.name)])(
    'answers as Nest’s ValidationPipe with the same options for %s, bodies and queries of any shape',
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
});

/** The pipe's field errors for a body, or undefined when it was accepted. */
async function bodyErrors(dto: Class<unknown>, body: object): Promise<FieldError[] | undefined> {
  try {
    await pipe.transform(body, { type: 'body', metatype: dto });
    return undefined;
  } catch (error) {
    // Any other error (a TypeError, an HTTP 500) fails here.
    expect(error).toMatchObject({ code: ErrorCode.ValidationFailed });
    return (error as DomainError).errors ?? [];
  }
}

describe('null in an optional field, in every input DTO', () => {
  const cases = [...dtos].flatMap(([name, dto]) =>
    optionalFields(dto)
      .filter((field) => !field.includes('.'))
      .map((field): [string, string] => [name, field]),
  );

  it('finds the optional fields that must stay omittable', () => {
    for (const [dto, field] of [
      ['CreateWebhookEndpointDto', 'event_types'],
      ['UpdateWebhookEndpointDto', 'event_types'],
      ['UpdateUserDto', 'role'],
      ['UpdateUserDto', 'disabled'],
    ])
      expect(cases).toContainEqual([dto, field]);
  });

  it.each(cases)(
    '%s.%s: null is a 400 naming the field, and every other error is kept',
    async (name, field) => {
      const dto = dtos.get(name)!;
      const without = await bodyErrors(dto, {});
      const withNull = await bodyErrors(dto, { [field]: null });
      expect(withNull?.some((e) => e.field === field)).toBe(true);
      const others = withNull?.filter((e) => e.field !== field && !e.field.startsWith(`${field}.`));
      expect(others).toEqual(without ?? []);
    },
  );
});
