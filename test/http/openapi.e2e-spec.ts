import { readFileSync } from 'node:fs';
import type {
  OpenAPIObject,
  OperationObject,
  RequestBodyObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger';
import { apiTypes, previewApiDocument, TYPES_FILE } from '../../scripts/openapi';
import { CrossSiteGuard } from '../../src/common/auth/cross-site.guard';
import { SessionGuard } from '../../src/common/auth/session.guard';
import { ErrorCode } from '../../src/common/errors/error-code.enum';
import { RateLimitGuard } from '../../src/common/throttling/rate-limit.guard';
import { DeviceBearerGuard } from '../../src/device/tokens/device-bearer.guard';
import { FulfilmentGuard } from '../../src/subscription/fulfilment.guard';
import { apiClient } from '../support/api-client';
import { codesRaisedBy } from '../support/feature-codes';
import { appRoutes, AppRoute } from '../support/routes';
import { createTestApp, TestApp } from '../support/test-app';

/** Routes that read no input and answer no problem (the redocly ignore file says the same). */
const NO_CLIENT_ERRORS = ['getHealth', 'getLiveness', 'getCheckoutConfig', 'getAuthConfig'];
const PROBLEM = 'application/problem+json';
const CODES = new Set<string>(Object.values(ErrorCode));

interface Operation {
  method: string;
  path: string;
  op: OperationObject;
}

function operations(document: OpenAPIObject): Operation[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item)
      .filter(([method]) => ['get', 'post', 'put', 'patch', 'delete'].includes(method))
      .map(([method, op]) => ({ method, path, op: op as OperationObject })),
  );
}

/** The codes the operation documents for a status, from its problem examples. */
function codesAt(op: OperationObject, status: number): string[] {
  const response = op.responses[status] as ResponseObject | undefined;
  return Object.keys(response?.content?.[PROBLEM]?.examples ?? {});
}

describe('the OpenAPI document', () => {
  let t: TestApp;
  let document: OpenAPIObject;
  let ops: Operation[];
  beforeAll(async () => {
    t = await createTestApp();
    document = (await t.http().get('/api/docs-json').expect(200)).body as OpenAPIObject;
    ops = operations(document);
  });
  afterAll(() => t.close());

  const documented = () => appRoutes(t).filter((r) => r.documented);
  const find = (route: AppRoute) =>
    ops.find((o) => o.method === route.method && o.path === route.openApiPath)?.op;

  it('describes every route of the app, and nothing else', () => {
    const routes = documented().map((r) => `${r.method} ${r.openApiPath}`);
    expect(ops.map((o) => `${o.method} ${o.path}`).sort()).toEqual(routes.sort());
  });

  // Each check collects what is wrong, so a failure names every offending operation at once.
  it('gives every operation a unique camelCase operationId, a summary and a tag', () => {
    const ids = ops.map(({ op }) => op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    const wrong = ops.flatMap(({ method, path, op }) => [
      ...(/^[a-z][a-zA-Z0-9]+$/.test(op.operationId ?? '')
        ? []
        : [`${method} ${path}: operationId`]),
      ...(op.summary ? [] : [`${method} ${path}: summary`]),
      ...(op.tags?.length ? [] : [`${method} ${path}: tags`]),
    ]);
    expect(wrong).toEqual([]);
  });

  it('answers every error as problem details with examples whose code and status fit', () => {
    const ref = { $ref: '#/components/schemas/ProblemDetails' };
    // The shared component, with `code` narrowed to the codes this status lists.
    const schemaFor = (codes: string[]) => ({
      allOf: [
        ref,
        {
          type: 'object',
          required: ['code'],
          properties: { code: { type: 'string', enum: codes } },
        },
      ],
    });
    const wrong = ops.flatMap(({ path, op }) => {
      const id = op.operationId ?? path;
      const errors = Object.entries(op.responses).filter(([status]) => Number(status) >= 400);
      const found = errors.flatMap(([status, response]) => {
        if (path === '/health' && status === '503') return []; // the health report itself
        const content = (response as ResponseObject).content?.[PROBLEM];
        const codes = Object.keys(content?.examples ?? {});
        if (JSON.stringify(content?.schema) !== JSON.stringify(schemaFor(codes))) {
          return [`${id} ${status}: schema`];
        }
        return Object.entries(content?.examples ?? {}).flatMap(([code, example]) => {
          const { value } = example as { value: { code: string; status: number } };
          const fits = CODES.has(code) && value.code === code && value.status === Number(status);
          return fits ? [] : [`${id} ${status} ${code}`];
        });
      });
      const clientError = errors.some(([status]) => Number(status) < 500);
      if (clientError === NO_CLIENT_ERRORS.includes(id)) found.push(`${id}: 4xx`);
      return found;
    });
    expect(wrong).toEqual([]);
  });

  it('documents what the body parser, the guards and the rate limits answer', () => {
    const wrong = documented().flatMap((route) => {
      const op = find(route);
      if (!op) return [`${route.method} ${route.openApiPath}: undocumented`];
      const guarded = (guard: unknown) => route.guards.includes(guard as never);
      const needs: [number, ErrorCode][] = [];
      // The body parser runs on every POST, PUT, PATCH and DELETE, with a body or without.
      if (route.method !== 'get' || route.takesBody) {
        needs.push([413, ErrorCode.PayloadTooLarge], [415, ErrorCode.UnsupportedMediaType]);
        if (!op.responses[400]) needs.push([400, ErrorCode.ValidationFailed]);
      }
      const bearerOrSession = guarded(SessionGuard) || guarded(DeviceBearerGuard);
      if (bearerOrSession)
        needs.push([401, ErrorCode.Unauthenticated], [503, ErrorCode.Unavailable]);
      const crossSite = guarded(CrossSiteGuard) && route.method !== 'get';
      const admin = guarded(SessionGuard) && route.role === 'admin';
      if (crossSite || admin || guarded(FulfilmentGuard)) needs.push([403, ErrorCode.Forbidden]);
      if (guarded(RateLimitGuard)) needs.push([429, ErrorCode.RateLimited]);
      const missing = needs
        .filter(([status, code]) => !codesAt(op, status).includes(code))
        .map(([status, code]) => `${op.operationId} ${status} ${code}`);
      if (bearerOrSession && op.security?.length !== 1) missing.push(`${op.operationId} security`);
      const retryAfter = (op.responses[429] as ResponseObject | undefined)?.headers?.[
        'Retry-After'
      ];
      if (guarded(RateLimitGuard) && !retryAfter) missing.push(`${op.operationId} Retry-After`);
      return missing;
    });
    expect(wrong).toEqual([]);
  });

  it('documents 500 and 503 on every operation but the probes, whatever its input', () => {
    const wrong = ops
      .filter(({ path }) => !['/health', '/health/live'].includes(path))
      .flatMap(({ op }) => [
        ...(codesAt(op, 500).includes(ErrorCode.InternalError) ? [] : [`${op.operationId} 500`]),
        ...(codesAt(op, 503).includes(ErrorCode.Unavailable) ? [] : [`${op.operationId} 503`]),
      ]);
    expect(wrong).toEqual([]);
  });

  it('documents only codes the operation can give', () => {
    const wrong = documented().flatMap((route) => {
      const op = find(route);
      if (!op) return [];
      const guarded = (guard: unknown) => route.guards.includes(guard as never);
      const bodyParsed = route.method !== 'get' || route.takesBody;
      const raises = codesRaisedBy(route.controller.name);
      const canGive = (code: ErrorCode): boolean => {
        switch (code) {
          case ErrorCode.InternalError:
          case ErrorCode.Unavailable:
            return true;
          case ErrorCode.ValidationFailed:
            return bodyParsed || route.takesParams;
          case ErrorCode.PayloadTooLarge:
          case ErrorCode.UnsupportedMediaType:
            return bodyParsed;
          case ErrorCode.Unauthenticated:
            return guarded(SessionGuard) || guarded(DeviceBearerGuard);
          case ErrorCode.Forbidden:
            return (
              (guarded(CrossSiteGuard) && route.method !== 'get') ||
              (guarded(SessionGuard) && route.role === 'admin') ||
              guarded(FulfilmentGuard)
            );
          case ErrorCode.RateLimited:
            return guarded(RateLimitGuard);
          default:
            return raises.has(code);
        }
      };
      return Object.keys(op.responses)
        .filter((status) => Number(status) >= 400)
        .flatMap((status) => codesAt(op, Number(status)))
        .filter((code) => !canGive(code as ErrorCode))
        .map((code) => `${op.operationId} ${code}`);
    });
    expect(wrong).toEqual([]);
  });

  it('closes every JSON request body: unknown fields are refused, so none are allowed', async () => {
    const schemas = document.components?.schemas ?? {};
    const open = (name: string, seen = new Set<string>()): string[] => {
      if (seen.has(name)) return [];
      seen.add(name);
      const schema = schemas[name] as SchemaObject;
      const nested =
        JSON.stringify(schema.properties ?? {}).match(/#\/components\/schemas\/\w+/g) ?? [];
      return [
        ...(schema.additionalProperties === false ? [] : [name]),
        ...nested.flatMap((ref) => open(ref.split('/').pop() as string, seen)),
      ];
    };
    const bodies = ops.flatMap(({ op }) => {
      const body = op.requestBody as RequestBodyObject | undefined;
      const ref = (body?.content['application/json']?.schema as { $ref?: string } | undefined)
        ?.$ref;
      return ref ? [ref.split('/').pop() as string] : [];
    });
    expect(bodies.length).toBeGreaterThanOrEqual(8);
    expect(bodies.flatMap((name) => open(name))).toEqual([]);
    // What the schemas say is what the pipe does (one public body route for the record).
    const res = await t.http().post('/api/lease/checkout').send({ surprise: 1 });
    expect({ status: res.status, code: res.body.code }).toEqual({
      status: 400,
      code: 'validation_failed',
    });
  });

  it('says contains_phi accepts only false, as the checkout enforces', async () => {
    const schema = document.components?.schemas?.CreateCheckoutDto as SchemaObject;
    expect(schema.properties?.contains_phi).toMatchObject({ type: 'boolean', enum: [false] });
    const res = await t.http().post('/api/lease/checkout').send({ contains_phi: true });
    expect({ status: res.status, code: res.body.code }).toEqual({
      status: 400,
      code: 'phi_not_accepted',
    });
  });

  it('describes every tag its operations use, and the overview names each', () => {
    const used = new Set(ops.flatMap(({ op }) => op.tags ?? []));
    const described = new Map((document.tags ?? []).map((tag) => [tag.name, tag.description]));
    expect([...used].filter((name) => !described.get(name)).sort()).toEqual([]);
    expect([...described.keys()].filter((name) => !used.has(name))).toEqual([]);
    const overview = document.info.description ?? '';
    expect([...used].filter((name) => !overview.includes(`**${name}**`)).sort()).toEqual([]);
  });

  it('defines the security schemes it names, and a server from BASE_URL', () => {
    const schemes = document.components?.securitySchemes ?? {};
    expect(Object.keys(schemes).sort()).toEqual(['device', 'session', 'stripeSignature']);
    expect(schemes.session).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'service_session',
    });
    expect(schemes.stripeSignature).toMatchObject({ in: 'header', name: 'Stripe-Signature' });
    expect(document.servers).toEqual([
      { url: t.config.baseUrl, description: expect.stringContaining('BASE_URL') },
    ]);
  });

  it('is what `npm run openapi:lint` lints: the preview build gives the same paths', async () => {
    const preview = await previewApiDocument();
    expect(preview.paths).toEqual(document.paths);
    expect(preview.components).toEqual(document.components);
  });

  it('matches the committed client types (npm run openapi:types regenerates them)', () => {
    expect(apiTypes(document)).toBe(readFileSync(TYPES_FILE, 'utf8'));
  });
});

/** Compiled, never run: the typed client refuses what the document does not declare. */
export function typedClientRefusals(call: ReturnType<typeof apiClient>): void {
  // @ts-expect-error registerDevice declares no 418
  void call('post', '/api/v1/devices', { expect: 418 });
  // @ts-expect-error the document has no PUT on /api/v1/devices
  void call('put', '/api/v1/devices', { expect: 200 });
  // @ts-expect-error `model` is required by CreateDeviceDto
  void call('post', '/api/v1/devices', { expect: 201, body: { device_id: 'd', provider: 'p' } });
}
