import { STATUS_CODES } from 'node:http';
import { applyDecorators } from '@nestjs/common';
import { DECORATORS, getSchemaPath, type HeaderObject, type ResponseObject } from '@nestjs/swagger';
import { ErrorCode, statusOf } from '../errors/error-code.enum';
import { PROBLEM_CONTENT_TYPE } from '../errors/problem-details';
import { ProblemDetailsSchema } from './problem-details.schema';
import { exampleOf } from './problem-examples';

/** The codes documented so far on a handler: decorators of several kinds add to one route. */
const PROBLEM_CODES = Symbol('problem-codes');
const ALL_CODES = Object.values(ErrorCode);

const retryAfter = (required: boolean): Record<string, HeaderObject> => ({
  'Retry-After': {
    required,
    description: 'Seconds to wait before trying again',
    schema: { type: 'integer', minimum: 1 },
  },
});

type Decorator = ReturnType<typeof applyDecorators>;

/**
 * Documents the error responses a route can give, by code: each status gets
 * `application/problem+json` content referencing the ProblemDetails component, with one example per
 * code. Repeated uses (on the method, on the class, inside other decorators) add up.
 */
export function ApiProblems(...codes: ErrorCode[]): Decorator {
  return (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    if (descriptor) return addProblems(descriptor.value as object, codes);
    // On a class: every method of it (method decorators have already run). Swagger reads the
    // responses of route handlers only, so a helper method's are never read; telling the two
    // apart here would take Nest's route key, which it keeps private.
    const prototype = (target as { prototype: object }).prototype;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = Object.getOwnPropertyDescriptor(prototype, name)?.value as unknown;
      if (name !== 'constructor' && typeof handler === 'function') addProblems(handler, codes);
    }
  };
}

/** Reads or writes the database: 503 `unavailable` (with Retry-After) while it cannot be reached. */
export const ApiDatabase = () => ApiProblems(ErrorCode.Unavailable);

/** POST, PUT, PATCH and DELETE: the body parser refuses malformed, oversized or non-JSON bodies. */
export const ApiJsonBody = () =>
  ApiProblems(
    ErrorCode.ValidationFailed,
    ErrorCode.PayloadTooLarge,
    ErrorCode.UnsupportedMediaType,
  );

/** A cookie route that changes state (CrossSiteGuard): also 403 for a cross-site request. */
export const ApiCookieWrite = () =>
  applyDecorators(ApiJsonBody(), ApiProblems(ErrorCode.Forbidden));

function addProblems(handler: object, codes: ErrorCode[]): void {
  const known = (Reflect.getMetadata(PROBLEM_CODES, handler) ?? []) as ErrorCode[];
  const all = ALL_CODES.filter((code) => known.includes(code) || codes.includes(code));
  Reflect.defineMetadata(PROBLEM_CODES, all, handler);
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of all) {
    const status = statusOf(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  // Swagger's responses of the handler, under its public key, each status's entry replaced by the
  // union of the codes so far (its ApiResponse would join the descriptions of repeated entries).
  const { API_RESPONSE } = DECORATORS;
  const responses = (Reflect.getMetadata(API_RESPONSE, handler) ?? {}) as object;
  const problems = [...byStatus].map(([status, group]) => [status, problemResponse(status, group)]);
  Reflect.defineMetadata(API_RESPONSE, { ...responses, ...Object.fromEntries(problems) }, handler);
}

/**
 * One status's problem response. Its `code` is narrowed to the codes this operation gives at this
 * status, so a client generated from the document knows them, not every code of the service.
 */
export function problemResponse(status: number, codes: ErrorCode[]): ResponseObject {
  const ordered = ALL_CODES.filter((code) => codes.includes(code));
  const examples = Object.fromEntries(ordered.map((code) => [code, { value: exampleOf(code) }]));
  return {
    description: `${STATUS_CODES[status]}: ${ordered.map((code) => `\`${code}\``).join(', ')}`,
    ...(status === 429 || status === 503 ? { headers: retryAfter(status === 429) } : {}),
    content: {
      [PROBLEM_CONTENT_TYPE]: {
        schema: {
          allOf: [
            { $ref: getSchemaPath(ProblemDetailsSchema) },
            {
              type: 'object',
              required: ['code'],
              properties: { code: { type: 'string', enum: ordered } },
            },
          ],
        },
        examples,
      },
    },
  };
}

/** The codes a problem response documents (its examples), for adding to it after the fact. */
export function problemCodesOf(response: ResponseObject | undefined): ErrorCode[] {
  const examples = response?.content?.[PROBLEM_CONTENT_TYPE]?.examples ?? {};
  return ALL_CODES.filter((code) => code in examples);
}
