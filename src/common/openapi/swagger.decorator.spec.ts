import { Controller, Get } from '@nestjs/common';
import * as swagger from '@nestjs/swagger';
import * as deferred from './swagger.decorator';

/**
 * Every metadata key and value on a class, its prototype and its methods, keys sorted: deferred,
 * Swagger's keys are defined after Nest's on a method (nothing iterates them; the document's e2e
 * test compares what is served).
 */
function metadataOf(type: new () => object): [string, string, unknown][] {
  const proto = type.prototype as Record<string, unknown>;
  const targets: [string, object][] = [
    ['class', type],
    ['prototype', proto],
    ...Object.getOwnPropertyNames(proto)
      .filter((name) => name !== 'constructor')
      .map((name): [string, object] => [name, proto[name] as object]),
  ];
  return targets.flatMap(([where, target]) =>
    (Reflect.getOwnMetadataKeys(target) as (string | symbol)[])
      .sort((a, b) => String(a).localeCompare(String(b)))
      .map((key): [string, string, unknown] => [
        where,
        String(key),
        Reflect.getMetadata(key, target),
      ]),
  );
}

/** The same decorators in the same order, from `lib`: Swagger's own or the deferred ones. */
function declare(lib: typeof deferred | typeof swagger) {
  class ItemDto {
    @lib.ApiProperty({ example: 'x', description: 'A name' })
    name!: string;

    @lib.ApiPropertyOptional({ type: 'integer', minimum: 1 })
    count?: number;
  }

  @lib.ApiTags('items')
  @lib.ApiSecurity('session')
  @Controller('items')
  class ItemController {
    @Get()
    @lib.ApiOperation({ operationId: 'listItems', summary: 'Items' })
    @lib.ApiOkResponse({ type: [ItemDto] })
    @lib.ApiNoContentResponse({ description: 'None' })
    list(): ItemDto[] {
      return [];
    }
  }
  return { ItemDto, ItemController };
}

describe('deferred Swagger decorators', () => {
  it('write nothing until applied, then what Swagger wrote at load, in the same order', () => {
    const real = declare(swagger);
    const later = declare(deferred);
    const swaggerKeys = (type: new () => object) =>
      metadataOf(type).filter(([, key]) => String(key).startsWith('swagger/'));
    expect(swaggerKeys(later.ItemDto)).toEqual([]);
    expect(swaggerKeys(later.ItemController)).toEqual([]);

    deferred.applyDeferredDecorators();

    // Classes (`type`, design types) differ by identity only: compared by name.
    const text = (type: new () => object) =>
      JSON.stringify(metadataOf(type), (_key, value: unknown) =>
        typeof value === 'function' ? `class ${value.name}` : value,
      );
    expect(text(later.ItemDto)).toBe(text(real.ItemDto));
    expect(text(later.ItemController)).toBe(text(real.ItemController));
    expect(metadataOf(later.ItemDto).length).toBeGreaterThan(0);
  });

  it('applies each recorded decorator once', () => {
    const later = declare(deferred);
    deferred.applyDeferredDecorators();
    const once = JSON.stringify(metadataOf(later.ItemController));
    deferred.applyDeferredDecorators();
    expect(JSON.stringify(metadataOf(later.ItemController))).toBe(once);
  });
});
