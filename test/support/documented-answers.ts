import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPIObject, OperationObject, ResponseObject } from '@nestjs/swagger';
// ajv's documented entry for JSON Schema 2020-12 (ajv.js.org/json-schema.html): it has no other.
// eslint-disable-next-line no-restricted-imports
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Response } from 'supertest';

/**
 * Every JSON answer the e2e suites get through `t.http()` (test-app.ts), checked against the
 * committed OpenAPI document (test/support/openapi.json, which api-docs.e2e-spec.ts holds equal
 * to the served one): an answer of a documented operation whose status the operation does not
 * document, or whose body its schema does not describe (`null` included), fails the request
 * that got it. Routes the document does not describe (the tests' probes, /metrics) are not checked.
 *
 * The document is OpenAPI 3.0: its schemas are read as JSON Schema 2020-12 (ajv) with 3.0's
 * `nullable` as 3.0.3 defines it (null is allowed where `type` sits in the same object, nowhere
 * else: not through an `allOf` of a reference). Each schema is compiled once, on first use, per
 * test file (Jest gives every file its own modules).
 */
const JSON_TYPES = ['application/json', 'application/problem+json'];
/**
 * Node's HTTP parser refuses these before a request exists (common/http/server-limits.ts): they
 * answer a connection, not an operation, which is why no operation documents them.
 */
const BEFORE_ANY_ROUTE = new Set([408, 431]);
const DEFS = 'openapi.json';
/** 3.0 keywords JSON Schema 2020-12 does not know; annotations only. */
const ANNOTATIONS = ['example', 'xml', 'externalDocs', 'discriminator'];

interface DocumentedOperation {
  method: string;
  pattern: RegExp;
  /** Fewer parameters first: `/devices/summary` before `/devices/{id}`. */
  params: number;
  op: OperationObject;
}

type Schema = Record<string, unknown>;

/** A 3.0 schema as 2020-12: `nullable` where it applies, references into the shared `$defs`. */
function translate(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(translate);
  if (node === null || typeof node !== 'object') return node;
  const out: Schema = {};
  for (const [key, value] of Object.entries(node as Schema)) {
    if (key === 'nullable') continue;
    if (key === '$ref' && typeof value === 'string') {
      out.$ref = value.replace('#/components/schemas/', `${DEFS}#/$defs/`);
    } else if (key === 'properties' || key === 'patternProperties') {
      out[key] = Object.fromEntries(
        Object.entries(value as Schema).map(([name, schema]) => [name, translate(schema)]),
      );
    } else out[key] = translate(value);
  }
  const schema = node as Schema;
  if (schema.nullable === true && typeof schema.type === 'string') {
    out.type = [schema.type, 'null'];
    if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
  }
  return out;
}

class DocumentedAnswers {
  private readonly ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false });
  private readonly operations: DocumentedOperation[];
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor(document: OpenAPIObject) {
    addFormats(this.ajv);
    this.ajv.addVocabulary(ANNOTATIONS);
    this.ajv.addSchema({ $id: DEFS, $defs: translate(document.components?.schemas ?? {}) });
    this.operations = Object.entries(document.paths)
      .flatMap(([path, item]) =>
        Object.entries(item as Record<string, OperationObject>).map(([method, op]) => ({
          method,
          op,
          params: (path.match(/\{/g) ?? []).length,
          pattern: new RegExp(
            `^${path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`,
          ),
        })),
      )
      .sort((a, b) => a.params - b.params);
  }

  /** Why the answer is not what the document says, or undefined when it is (or is not documented). */
  mismatch(method: string, url: string, res: Response): string | undefined {
    const path = url.split('?')[0];
    const found = this.operations.find((o) => o.method === method && o.pattern.test(path));
    const mediaType = String(res.headers['content-type'] ?? '').split(';')[0];
    if (!found || method === 'head' || !JSON_TYPES.includes(mediaType)) return undefined;
    if (BEFORE_ANY_ROUTE.has(res.status)) return undefined;
    const id = found.op.operationId ?? `${method} ${path}`;
    const response = (found.op.responses[res.status] ?? found.op.responses.default) as
      ResponseObject | undefined;
    if (!response) return `${id} does not document status ${res.status}`;
    const schema = response.content?.[mediaType]?.schema;
    if (!schema) return `${id} documents no ${mediaType} body for status ${res.status}`;
    const key = `${id} ${res.status} ${mediaType}`;
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = this.ajv.compile(translate(schema) as Schema);
      this.compiled.set(key, validate);
    }
    if (validate(res.body)) return undefined;
    return `${key}: ${this.ajv.errorsText(validate.errors, { separator: '; ', dataVar: 'body' })}`;
  }
}

let answers: DocumentedAnswers | undefined;

/** A supertest assertion: fails the request whose JSON answer the document does not describe. */
export function answersAsDocumented(method: string, url: string): (res: Response) => void {
  return (res) => {
    answers ??= new DocumentedAnswers(
      JSON.parse(readFileSync(join(__dirname, 'openapi.json'), 'utf8')) as OpenAPIObject,
    );
    const wrong = answers.mismatch(method, url, res);
    if (wrong === undefined) return;
    const body = JSON.stringify(res.body);
    throw new Error(
      `${method.toUpperCase()} ${url} answered ${res.status} unlike the OpenAPI document ` +
        `(test/support/openapi.json): ${wrong}\n  body: ${body.length > 600 ? `${body.slice(0, 600)}…` : body}`,
    );
  };
}
