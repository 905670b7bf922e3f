import type { INestApplication } from '@nestjs/common';
import {
  DocumentBuilder,
  type OpenAPIObject,
  type ReferenceObject,
  type ResponseObject,
  type SchemaObject,
  SwaggerModule,
} from '@nestjs/swagger';
import type { AppConfig } from '../../config/app-config';
import { ErrorCode, statusOf } from '../errors/error-code.enum';
import { HEALTH_PATHS } from '../http/probe-paths';
import { problemCodesOf, problemResponse } from './api-problems.decorator';
import { ProblemDetailsSchema } from './problem-details.schema';

export const API_DOCS_PATH = 'api/docs';
export const API_DOCS_JSON_PATH = 'api/docs-json';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Every area of the API, one tag each; the document's overview lists them all. */
const TAGS: [name: string, description: string][] = [
  ['auth', 'Sessions for people: sign in with an ID token, the session cookie'],
  ['users', "Account administration (role admin, the administrator's organization)"],
  ['org', "The signed-in person's organization"],
  ['devices', 'The organization device list, its administration, and device sign-in'],
  ['device-scoped', 'Operations a device makes with its own bearer token'],
  ['checkout', 'The public subscription checkout'],
  ['subscriptions', 'The operators’ view of subscriptions (fulfilment organization)'],
  [
    'webhook-endpoints',
    "Where the organization's signed events go: endpoints, their secrets, test events, deliveries",
  ],
  ['audit-events', "The audit trail of the administrator's organization (role admin)"],
  ['payment processor', 'Signed events from the payment processor'],
  ['health', 'Probes for load balancers and orchestrators'],
];

const OVERVIEW =
  'Sessions for people (cookie), short-lived bearer tokens for devices, and signed webhooks both ' +
  'ways. Errors are RFC 9457 problem details (`application/problem+json`) with a stable `code`. ' +
  'The server is `BASE_URL`; open these docs there, so that "Try it out" calls the same origin ' +
  'with the session cookie.\n\nThe areas, one tag each:\n\n' +
  TAGS.map(([name, description]) => `- **${name}**: ${description}`).join('\n');

/**
 * The OpenAPI document as served at /api/docs-json; `npm run openapi:lint` and the generated
 * client types use this same function, so what is checked is what is served.
 */
export function buildApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Device-care service')
    .setDescription(OVERVIEW)
    .setVersion(config.version)
    .setLicense('UNLICENSED', '')
    .addServer(config.baseUrl, 'BASE_URL: where clients reach this instance')
    .addCookieAuth(
      config.session.cookieName,
      { type: 'apiKey', in: 'cookie', description: 'The HttpOnly session cookie set by login' },
      'session',
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'JWT',
        description: 'From POST /auth/device',
      },
      'device',
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'Stripe-Signature',
        description: "The processor's signature over the exact body",
      },
      'stripeSignature',
    );
  for (const [name, description] of TAGS) builder.addTag(name, description);
  const document = SwaggerModule.createDocument(app, builder.build(), {
    extraModels: [ProblemDetailsSchema],
  });
  delete document.info.license?.url;
  return nullableReferences(
    closeRequestBodies(addServiceWideProblems(markPublicOperations(document))),
  );
}

/** An operation without a security requirement is public: say so (`security: []`), not nothing. */
function markPublicOperations(document: OpenAPIObject): OpenAPIObject {
  eachOperation(document, (_path, operation) => {
    if (!operation.security) operation.security = [];
  });
  return document;
}

type Operation = NonNullable<OpenAPIObject['paths'][string]['get']>;

function eachOperation(
  document: OpenAPIObject,
  visit: (path: string, op: Operation) => void,
): void {
  for (const [path, item] of Object.entries(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation) visit(path, operation);
    }
  }
}

/**
 * Whatever its input, every operation but the probes can answer 500 (a fault) and 503
 * `unavailable` (the drain gate refuses new requests on SIGTERM; see docs/operations.md).
 */
function addServiceWideProblems(document: OpenAPIObject): OpenAPIObject {
  eachOperation(document, (path, operation) => {
    if (HEALTH_PATHS.has(path)) return;
    for (const code of [ErrorCode.InternalError, ErrorCode.Unavailable]) {
      const status = statusOf(code);
      const codes = problemCodesOf(operation.responses[status] as ResponseObject | undefined);
      if (!codes.includes(code)) {
        operation.responses[status] = problemResponse(status, [...codes, code]);
      }
    }
  });
  return document;
}

/**
 * The global validation pipe refuses unknown fields (`forbidNonWhitelisted`) in every DTO body,
 * nested ones too: the body schemas say so (`additionalProperties: false`).
 */
function closeRequestBodies(document: OpenAPIObject): OpenAPIObject {
  const schemas = document.components?.schemas ?? {};
  const close = (schema: SchemaObject | ReferenceObject | undefined, seen: Set<string>): void => {
    if (!schema) return;
    if ('$ref' in schema) {
      const name = schema.$ref.split('/').pop() ?? '';
      if (seen.has(name)) return;
      seen.add(name);
      close(schemas[name], seen);
      return;
    }
    if (schema.type === 'object' || schema.properties) schema.additionalProperties = false;
    for (const part of [...(schema.allOf ?? []), ...Object.values(schema.properties ?? {})]) {
      close(part, seen);
    }
    if (schema.items) close(schema.items, seen);
  };
  eachOperation(document, (_path, operation) => {
    const body = operation.requestBody;
    if (!body || '$ref' in body) return;
    const schema = body.content['application/json']?.schema;
    // Only DTO bodies (components): the webhook's raw event is the processor's to shape.
    if (schema && '$ref' in schema) close(schema, new Set());
  });
  return document;
}

/** Only null: OpenAPI 3.0.3 has no null type, and `nullable` only widens a `type` beside it. */
const NULL_ONLY: SchemaObject = { enum: [null] };

/**
 * A nullable property of a DTO type (`@ApiProperty({ type: Dto, nullable: true })`): Swagger
 * writes `nullable` beside an `allOf` of the reference, which in OpenAPI 3.0.3 still refuses null
 * (`nullable` only widens a `type` in the same object). Said as either the DTO or null.
 */
function nullableReferences(document: OpenAPIObject): OpenAPIObject {
  for (const schema of Object.values(document.components?.schemas ?? {})) {
    if ('$ref' in schema) continue;
    for (const [name, property] of Object.entries(schema.properties ?? {})) {
      if ('$ref' in property || !property.nullable || property.allOf?.length !== 1) continue;
      const { description } = property;
      schema.properties![name] = {
        ...(description ? { description } : {}),
        anyOf: [property.allOf[0], NULL_ONLY],
      };
    }
  }
  return document;
}
