import express, { NextFunction, Request, RequestHandler, Response } from 'express';
import { DomainError } from '../errors/domain.error';
import { ErrorCode } from '../errors/error-code.enum';
import { reachesPrototype } from '../validation/prototype-keys';
import { isJsonMediaType, isUtf8Charset } from './media-type';

const JSON_LIMIT_BYTES = 64 * 1024;
const RAW_BODY_LIMIT_BYTES = 1024 * 1024;
/** Deeper than any body the API takes (processor events nest about 8 levels); refused before validation. */
export const MAX_JSON_DEPTH = 32;
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * JSON is the only body type the API reads: any other type is 415, a compressed body is 415 too
 * (`inflate: false`: no client of this API compresses, and the processor signs the bytes as sent),
 * a body over the limit is 413, malformed JSON is 400. Failures go to `next(err)`, so Nest's
 * exception filter answers them as problem details.
 *
 * `rawBodyPaths` (the webhook) get the exact bytes as a Buffer in `req.body`, up to 1 MiB: the
 * signature covers them and the processor's SDK parses them itself. `largerJsonPaths` (the device
 * batch) are JSON read up to their own limit; every other path keeps 64 KiB.
 */
export function bodyParsers(
  rawBodyPaths: string[],
  largerJsonPaths: Record<string, number> = {},
): RequestHandler {
  const json = jsonParser(JSON_LIMIT_BYTES);
  const raw = express.raw({ limit: RAW_BODY_LIMIT_BYTES, inflate: false, type: () => true });
  // One parser per larger limit, made once; matched on the exact path, as the raw paths are.
  const larger = new Map(Object.entries(largerJsonPaths).map(([p, n]) => [p, jsonParser(n)]));
  return (req: Request, res: Response, next: NextFunction) => {
    if (!BODY_METHODS.has(req.method) || !hasBody(req)) return next();
    const refusal = refuseMediaType(req);
    if (refusal) return next(refusal);
    const keepRaw = rawBodyPaths.includes(req.path);
    (keepRaw ? raw : (larger.get(req.path) ?? json))(req, res, (err?: unknown) => {
      if (err) return next(bodyError(err));
      const problem = keepRaw ? undefined : jsonBodyProblem(req.body, MAX_JSON_DEPTH);
      next(problem ? badBody(problem) : undefined);
    });
  };
}

function jsonParser(limit: number): RequestHandler {
  return express.json({ limit, inflate: false, type: () => true });
}

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

function refuseMediaType(req: Request): DomainError | undefined {
  const type = req.headers['content-type'];
  if (type === undefined || !isJsonMediaType(type)) {
    return unsupported('The request body must be application/json.');
  }
  const encoding = req.headers['content-encoding'];
  if (!isUtf8Charset(type) || (encoding !== undefined && encoding.toLowerCase() !== 'identity')) {
    return unsupported('The body must be uncompressed UTF-8 JSON.');
  }
  return undefined;
}

/** body-parser's errors (http-errors with a `type`) as our codes, with fixed details. */
function bodyError(err: unknown): DomainError {
  switch ((err as { type?: unknown }).type) {
    case 'entity.too.large':
      return new DomainError(ErrorCode.PayloadTooLarge, 'The request body is too large.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return unsupported('The body must be uncompressed UTF-8 JSON.');
    case 'entity.parse.failed':
      return badBody('The request body is not valid JSON.');
    default:
      return badBody('The request body could not be read.');
  }
}

/**
 * Why a parsed body is refused, if it is: nested deeper than `max` (found by the reliability suite:
 * 12 000 levels overflowed the validator's stack, a 500), or carrying a key that reaches a
 * prototype (prototype-keys.ts), which would poison any object the body is later merged into.
 * One walk for both (it was two, each allocating an entry per key); depth is named first, as
 * before, when a body breaks both rules.
 */
export function jsonBodyProblem(value: unknown, max: number): string | undefined {
  const found = walkJson(value, max, true);
  if (found === TOO_DEEP) return 'The request body is nested too deeply.';
  return found === PROTOTYPE_KEY
    ? 'The request body may not contain __proto__ or constructor.prototype keys.'
    : undefined;
}

/** True when objects or arrays nest deeper than `max`; iterative, so it cannot overflow itself. */
export function nestedDeeperThan(value: unknown, max: number): boolean {
  return walkJson(value, max, false) === TOO_DEEP;
}

const TOO_DEEP = 1;
const PROTOTYPE_KEY = 2;

/**
 * Walks a parsed JSON value (iteratively, values and their depths on two stacks, no pair per key):
 * TOO_DEEP as soon as an object or array sits deeper than `max`; else PROTOTYPE_KEY when
 * `prototypeKeys` and some key at any depth reaches a prototype; else 0.
 */
function walkJson(root: unknown, max: number, prototypeKeys: boolean): number {
  let found = 0;
  const values: unknown[] = [root];
  const depths: number[] = [0];
  while (values.length > 0) {
    const v = values.pop();
    const depth = depths.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth + 1 > max) return TOO_DEEP;
    const record = v as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const child = record[key];
      if (prototypeKeys && found === 0 && reachesPrototype(key, child)) found = PROTOTYPE_KEY;
      if (typeof child === 'object' && child !== null) {
        values.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return found;
}

function unsupported(detail: string): DomainError {
  return new DomainError(ErrorCode.UnsupportedMediaType, detail);
}

function badBody(detail: string): DomainError {
  return new DomainError(ErrorCode.ValidationFailed, detail);
}
