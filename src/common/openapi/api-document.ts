import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { AppConfig } from '../../config/app-config';
import { ProblemDetailsSchema } from './problem-details.schema';

export const API_DOCS_PATH = 'api/docs';
export const API_DOCS_JSON_PATH = 'api/docs-json';

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const TAGS: [name: string, description: string][] = [
  ['auth', 'Sessions for people: sign in with an ID token, the session cookie'],
  ['users', "Account administration (role admin, the administrator's organization)"],
  ['org', "The signed-in person's organization"],
  ['devices', 'The organization device list, its administration, and device sign-in'],
  ['device-scoped', 'Operations a device makes with its own bearer token'],
  ['checkout', 'The public subscription checkout'],
  ['subscriptions', 'The operators’ view of subscriptions (fulfilment organization)'],
  ['payment processor', 'Signed events from the payment processor'],
  ['health', 'Probes for load balancers and orchestrators'],
];

/**
 * The OpenAPI document as served at /api/docs-json; `npm run openapi:lint` and the generated
 * client types use this same function, so what is checked is what is served.
 */
export function buildApiDocument(app: INestApplication, config: AppConfig): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle('Device-care service')
    .setDescription(
      'Sessions for people (cookie), short-lived bearer tokens for devices, the organization ' +
        'device list, the public subscription checkout and the payment processor webhook. ' +
        'Errors are RFC 9457 problem details (`application/problem+json`) with a stable `code`.',
    )
    .setVersion(config.version)
    .setLicense('UNLICENSED', '')
    .addServer(config.baseUrl)
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
  return markPublicOperations(document);
}

/** Serves the document (built on its first request, not during boot: ~0.1-0.2 s of reflection). */
export function setupApiDocs(app: INestApplication, config: AppConfig): void {
  SwaggerModule.setup(API_DOCS_PATH, app, () => buildApiDocument(app, config), {
    jsonDocumentUrl: API_DOCS_JSON_PATH,
  });
}

/** An operation without a security requirement is public: say so (`security: []`), not nothing. */
function markPublicOperations(document: OpenAPIObject): OpenAPIObject {
  for (const item of Object.values(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method];
      if (operation && !operation.security) operation.security = [];
    }
  }
  return document;
}
