import { HttpStatus } from '@nestjs/common';
import type { FastifyBodyParser, FastifyInstance, FastifyRequest } from 'fastify';
import secureJson from 'secure-json-parse';
import { AppException } from '../errors/app.exception';
import { ErrorCode } from '../errors/error-code.enum';

export const JSON_LIMIT_BYTES = 64 * 1024;
export const WEBHOOK_JSON_LIMIT_BYTES = 1024 * 1024;
/** Deeper than any body the API takes (processor events nest about 8 levels); refused before validation. */
export const MAX_JSON_DEPTH = 32;
/** `application/json` and structured-syntax suffixes such as `application/merge-patch+json`. */
const JSON_SUFFIX_TYPE = /^application\/[\w.!#$&^-]+\+json$/i;
const JSON_MEDIA_TYPES = ['application/json', JSON_SUFFIX_TYPE];
const UTF8 = /^utf-?8$/i;

/** The exact bytes of a JSON body, kept beside the parsed value: webhook signatures cover them. */
export type RawBodyRequest = FastifyRequest & { rawBody?: Buffer };

/**
 * JSON is the only body type the API reads. Fastify answers any other type with 415 and a body
 * over the route's limit with 413; parse failures here become problem details through the filter.
 * Must run before the routes are registered (app.init), since the larger limit is set per route.
 */
export function registerJsonBody(fastify: FastifyInstance, largeBodyPaths: string[]): void {
  const parser: FastifyBodyParser<Buffer> = (req, body, done) => {
    try {
      done(null, parseJsonBody(req, body));
    } catch (err) {
      done(err as Error, undefined);
    }
  };
  fastify.removeAllContentTypeParsers();
  for (const type of JSON_MEDIA_TYPES)
    fastify.addContentTypeParser(type, { parseAs: 'buffer' }, parser);
  // Every other route keeps the server's bodyLimit, JSON_LIMIT_BYTES (createHttpAdapter).
  fastify.addHook('onRoute', (route) => {
    if (largeBodyPaths.includes(route.url)) route.bodyLimit = WEBHOOK_JSON_LIMIT_BYTES;
  });
}

function parseJsonBody(req: RawBodyRequest, body: Buffer): unknown {
  if (!isUtf8Identity(req)) {
    throw new AppException(
      ErrorCode.UnsupportedMediaType,
      HttpStatus.UNSUPPORTED_MEDIA_TYPE,
      'The body must be UTF-8 JSON.',
    );
  }
  // As before the move to Fastify: an empty body is no body, and validation names the missing fields.
  if (body.length === 0) return undefined;
  let value: unknown;
  try {
    // Refuses __proto__ and constructor.prototype keys, which could poison objects merged later.
    value = secureJson.parse(body.toString('utf8'), undefined, {
      protoAction: 'error',
      constructorAction: 'error',
    });
  } catch {
    throw badBody('The request body is not valid JSON.');
  }
  // Found by the reliability suite: a body nested thousands deep overflowed the validator's stack (500).
  if (jsonDepthExceeds(value, MAX_JSON_DEPTH))
    throw badBody('The request body is nested too deeply.');
  req.rawBody = body;
  return value;
}

/** Only UTF-8 text, not compressed: the processor signs the bytes as sent, and nothing else is needed. */
function isUtf8Identity(req: FastifyRequest): boolean {
  const encoding = req.headers['content-encoding'];
  if (encoding !== undefined && encoding.toLowerCase() !== 'identity') return false;
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(req.headers['content-type'] ?? '');
  return charset === null || UTF8.test(charset[1]);
}

/** Whether a Content-Type header names JSON, whatever its parameters. */
export function isJsonMediaType(contentType: string): boolean {
  const type = contentType.split(';', 1)[0].trim().toLowerCase();
  return type === 'application/json' || JSON_SUFFIX_TYPE.test(type);
}

function badBody(detail: string): AppException {
  return new AppException(ErrorCode.ValidationFailed, HttpStatus.BAD_REQUEST, detail);
}

/** Whether a parsed JSON value nests deeper than `max` arrays/objects; iterative, so it cannot overflow. */
export function jsonDepthExceeds(value: unknown, max: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > max) return true;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return false;
}
