import type * as ClassValidator from 'class-validator';

export type { MetadataStorage, ValidationError, ValidatorOptions } from 'class-validator';

type Api = typeof ClassValidator;

/**
 * class-validator, the parts the service uses, each from the file the package's entry takes it
 * from. The entry loads all of its 100-odd rules, and with them libphonenumber-js (its metadata of
 * every country) and most of validator.js: 3.6 MB of heap after a full GC that no rule here uses,
 * marked through at every full GC for the life of the process. The exports are the entry's own
 * functions (class-validator.spec.ts checks each one), so rules and metadata are shared with it.
 */
function part<K extends keyof Api>(file: string, ...names: K[]): Pick<Api, K> {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- one file of the package, see above
  const loaded = require(`class-validator/cjs/${file}`) as Pick<Api, K>;
  for (const name of names) {
    if (typeof loaded[name] !== 'function')
      throw new Error(`class-validator: no ${name} in ${file}`);
  }
  return loaded;
}

export const { ArrayMaxSize } = part('decorator/array/ArrayMaxSize', 'ArrayMaxSize');
export const { ArrayUnique } = part('decorator/array/ArrayUnique', 'ArrayUnique');
export const { IsDefined } = part('decorator/common/IsDefined', 'IsDefined');
export const { IsIn } = part('decorator/common/IsIn', 'IsIn');
export const { IsNotEmpty } = part('decorator/common/IsNotEmpty', 'IsNotEmpty');
export const { IsOptional } = part('decorator/common/IsOptional', 'IsOptional');
export const { ValidateNested } = part('decorator/common/ValidateNested', 'ValidateNested');
export const { Max } = part('decorator/number/Max', 'Max');
export const { Min } = part('decorator/number/Min', 'Min');
export const { IsNotEmptyObject } = part('decorator/object/IsNotEmptyObject', 'IsNotEmptyObject');
export const { IsEmail } = part('decorator/string/IsEmail', 'IsEmail');
export const { IsUrl } = part('decorator/string/IsUrl', 'IsUrl');
export const { IsUUID, isUUID } = part('decorator/string/IsUUID', 'IsUUID', 'isUUID');
export const { Matches } = part('decorator/string/Matches', 'Matches');
export const { MaxLength } = part('decorator/string/MaxLength', 'MaxLength');
export const { MinLength } = part('decorator/string/MinLength', 'MinLength');
export const { IsArray } = part('decorator/typechecker/IsArray', 'IsArray');
export const { IsBoolean } = part('decorator/typechecker/IsBoolean', 'IsBoolean');
export const { IsInt } = part('decorator/typechecker/IsInt', 'IsInt');
export const { IsObject } = part('decorator/typechecker/IsObject', 'IsObject');
export const { IsString } = part('decorator/typechecker/IsString', 'IsString');
export const { getMetadataStorage } = part('metadata/MetadataStorage', 'getMetadataStorage');

const { getFromContainer } = part('container', 'getFromContainer');
const { Validator } = part('validation/Validator', 'Validator');

/** The entry's `validate(object, options)`: its container's Validator (the default one). */
export const validate: (
  object: object,
  options?: ClassValidator.ValidatorOptions,
) => Promise<ClassValidator.ValidationError[]> = (object, options) =>
  getFromContainer(Validator).validate(object, options);

/** The entry's `validateSync(object, options)`, likewise. */
export const validateSync: (
  object: object,
  options?: ClassValidator.ValidatorOptions,
) => ClassValidator.ValidationError[] = (object, options) =>
  getFromContainer(Validator).validateSync(object, options);

/** What Nest's ValidationPipe takes instead of loading the whole package itself. */
export const validatorPackage = { validate, getMetadataStorage };
