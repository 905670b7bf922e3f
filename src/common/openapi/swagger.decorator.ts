/**
 * The `@nestjs/swagger` decorators the code uses, deferred: applying one only records it, and the
 * real decorators run, in the order they were applied, when the OpenAPI document is first built
 * (`applyDeferredDecorators`, from buildApiDocument). The document is built on its first request,
 * so a server that is never asked for it never loads `@nestjs/swagger`: its ES module graph
 * (es-toolkit's compat layer, js-yaml, ~560 modules) held ~4-5 MB of heap and code for the
 * process's life, which every full collection walks and the RSS under load counts
 * (bench/findings.md). The metadata the real decorators write is what they wrote at load time:
 * same decorators, same arguments, same targets, same order (an e2e test compares the document).
 *
 * Decorators of ours that write Swagger's metadata (ApiProblems) defer through `deferDecorator`,
 * so the order of every write to that metadata is kept.
 */
import type * as Swagger from '@nestjs/swagger';

type Decorator = (target: object, key?: string | symbol, descriptor?: PropertyDescriptor) => void;

/** Applications recorded and not yet replayed, in the order TypeScript's decorators ran. */
const pending: (() => void)[] = [];
let lib: typeof Swagger | undefined;

/** `@nestjs/swagger`, loaded on first use (the document's first request, or a script's build). */
export function swaggerLib(): typeof Swagger {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, see above
  lib ??= require('@nestjs/swagger') as typeof Swagger;
  return lib;
}

/** `apply` on the same target, key and descriptor, when the document is first built. */
export function deferDecorator(apply: Decorator): Decorator {
  return (target, key, descriptor) => {
    pending.push(() => apply(target, key, descriptor));
  };
}

/**
 * Runs every recorded decorator (once each); new ones, from classes loaded later, on a next call.
 * One that throws stays first, so every later build throws too, never a document without it.
 * (A broken Swagger decorator no longer stops the boot: it shows on the docs' first request, and
 * in test/http/api-docs.e2e-spec.ts.)
 */
export function applyDeferredDecorators(): void {
  while (pending.length > 0) {
    pending[0]();
    pending.shift();
  }
}

type DecoratorName =
  | 'ApiAcceptedResponse'
  | 'ApiBearerAuth'
  | 'ApiBody'
  | 'ApiCookieAuth'
  | 'ApiCreatedResponse'
  | 'ApiExcludeController'
  | 'ApiNoContentResponse'
  | 'ApiOkResponse'
  | 'ApiOperation'
  | 'ApiProperty'
  | 'ApiPropertyOptional'
  | 'ApiSchema'
  | 'ApiSecurity'
  | 'ApiServiceUnavailableResponse'
  | 'ApiTags';

/** Swagger's decorator factory `name`, with its own signature, recording instead of writing. */
function deferred<N extends DecoratorName>(name: N): (typeof Swagger)[N] {
  const factory = (...args: unknown[]): Decorator =>
    deferDecorator((target, key, descriptor) => {
      // Each factory's own argument list: the recorded arguments are the ones it was given.
      const real = swaggerLib()[name] as unknown as (...a: unknown[]) => Decorator;
      real(...args)(target, key, descriptor);
    });
  return factory;
}

export const ApiAcceptedResponse = deferred('ApiAcceptedResponse');
export const ApiBearerAuth = deferred('ApiBearerAuth');
export const ApiBody = deferred('ApiBody');
export const ApiCookieAuth = deferred('ApiCookieAuth');
export const ApiCreatedResponse = deferred('ApiCreatedResponse');
export const ApiExcludeController = deferred('ApiExcludeController');
export const ApiNoContentResponse = deferred('ApiNoContentResponse');
export const ApiOkResponse = deferred('ApiOkResponse');
export const ApiOperation = deferred('ApiOperation');
export const ApiProperty = deferred('ApiProperty');
export const ApiPropertyOptional = deferred('ApiPropertyOptional');
export const ApiSchema = deferred('ApiSchema');
export const ApiSecurity = deferred('ApiSecurity');
export const ApiServiceUnavailableResponse = deferred('ApiServiceUnavailableResponse');
export const ApiTags = deferred('ApiTags');
