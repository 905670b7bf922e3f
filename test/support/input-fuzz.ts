import fc from 'fast-check';
import type { Test } from 'supertest';
import { unstorableReason } from '../../src/common/validation/storable-text';
import { signIn } from './auth';
import { deviceKeyPair, deviceToken, signAssertion } from './devices';
import {
  createDevice,
  createOrg,
  createPendingSubscription,
  createUser,
  unique,
} from './factories';
import { checkoutCompletedEvent, sign } from './processor-events';
import { createFulfilmentOrg } from './subscriptions';
import type { TestApp } from './test-app';
import { deliver } from './webhook';

/**
 * Strings from the whole of Unicode as JSON can carry them: any UTF-16 code unit (so unpaired
 * surrogates), any code point, control characters, NUL, non-characters, and very long runs.
 */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
const codePoint = fc.integer({ min: 0, max: 0x10ffff }).map((n) => String.fromCodePoint(n));
const special = fc.constantFrom(
  '\0',
  '\uD800',
  '\uDFFF',
  '\uFFFE',
  '\uFFFF',
  '\uFDD0',
  '\u202E',
  '\u0085',
  '\u2028',
  '\r\n',
  '\t',
  '\u001b[31m',
  '%00',
  '\\u0000',
  '"',
  "'; --",
);
const unit = fc.oneof(codeUnit, codePoint, special);
export const anyString = fc.oneof(
  { weight: 8, arbitrary: fc.string({ unit, maxLength: 40 }) },
  {
    weight: 1,
    arbitrary: fc.tuple(unit, fc.integer({ min: 1_000, max: 10_000 })).map(([u, n]) => u.repeat(n)),
  },
);

/** One route that takes text from a client, with a valid request to vary one field of at a time. */
export interface FuzzRoute {
  method: 'POST' | 'PATCH' | 'PUT' | 'DELETE' | 'GET';
  /** The route as the server registered it. */
  pattern: string;
  /** Body fields (or, for a GET, query fields) that are strings. */
  fields: string[];
  /**
   * Sends the request with `value` in `field` (a field of `fields`, or `path`; for a body, any
   * field of its DTO, dotted for a nested one).
   */
  send(
    field: string,
    value: string | null,
  ): Promise<{ status: number; body: Record<string, unknown> }>;
}

/** Path segments as bytes: a lone surrogate has no UTF-8 form, so it goes as U+FFFD. */
const pathSegment = (s: string | null) =>
  [...Buffer.from(String(s), 'utf8')].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');

/** Every route of the API that reads text a client chose, each with what it needs to get past its guards. */
export async function fuzzRoutes(t: TestApp): Promise<FuzzRoute[]> {
  const admin = await signIn(t, { role: 'admin' });
  const member = await createUser(t.app, { orgId: admin.user.orgId });
  const device = await createDevice(t.app, (await createOrg(t.app)).id);
  const bearer = await deviceToken(t, device);
  const pair = deviceKeyPair('ec');
  const keyed = await createDevice(t.app, admin.user.orgId, { publicKey: pair.jwk });
  const assertion = await signAssertion(t, keyed.deviceId, pair);
  const subscription = await createPendingSubscription(t.app);
  const fulfilment = t.config.subscriptions.fulfilmentOrgId;
  if (fulfilment) await createFulfilmentOrg(t.app, fulfilment);
  // An admin of the fulfilment org: erasure and the export are theirs.
  const operator = fulfilment ? await signIn(t, { orgId: fulfilment, role: 'admin' }) : admin;
  const http = () => t.http();
  const as = (req: Test) => req.set('Cookie', admin.cookie);
  const endpoint = await webhookEndpointOf(t, admin.cookie);
  const asOperator = (req: Test) => req.set('Cookie', operator.cookie);
  const json = (req: Test, body: Record<string, unknown>) => req.send(body);
  const vary = (base: Record<string, unknown>, field: string, value: string | null) => ({
    ...base,
    [field]: value,
  });
  const bodyRoute = (
    method: 'POST' | 'PATCH' | 'PUT',
    pattern: string,
    base: Record<string, unknown>,
    make: () => Test,
  ): FuzzRoute => ({
    method,
    pattern,
    fields: Object.keys(base),
    send: (field, value) => json(make(), vary(base, field, value)),
  });
  return [
    bodyRoute('POST', '/api/auth/login', { id_token: 'x.y.z' }, () =>
      http().post('/api/auth/login'),
    ),
    bodyRoute(
      'POST',
      '/auth/device',
      { device_id: device.deviceId, model: device.model, provider: device.provider },
      () => http().post('/auth/device'),
    ),
    bodyRoute(
      'POST',
      '/auth/device',
      { device_id: keyed.deviceId, model: keyed.model, provider: keyed.provider, assertion },
      () => http().post('/auth/device'),
    ),
    {
      method: 'PUT',
      pattern: '/api/v1/devices/:device_id/public-key',
      fields: [
        'public_key.kty',
        'public_key.crv',
        'public_key.x',
        'public_key.y',
        'public_key.kid',
      ],
      send: (field, value) => {
        const body = { public_key: { ...pair.jwk, kid: 'k1' } };
        setPath(body, field, value);
        return as(http().put(`/api/v1/devices/${keyed.deviceId}/public-key`)).send(body);
      },
    },
    {
      method: 'PUT',
      pattern: '/api/v1/devices/:device_id/public-key',
      fields: ['path'],
      send: (_, value) =>
        as(http().put(`/api/v1/devices/${pathSegment(value)}/public-key`)).send({
          public_key: pair.jwk,
        }),
    },
    bodyRoute(
      'POST',
      '/api/v1/devices',
      { device_id: unique('d'), model: 'hub-2', provider: 'acme' },
      () => as(http().post('/api/v1/devices')),
    ),
    {
      method: 'POST',
      pattern: '/api/v1/devices/batch',
      fields: ['devices.0.device_id', 'devices.0.model', 'devices.0.provider'],
      send: (field, value) => {
        const body = { devices: [{ device_id: unique('b'), model: 'hub-2', provider: 'acme' }] };
        setPath(body, field, value);
        return as(http().post('/api/v1/devices/batch')).send(body);
      },
    },
    bodyRoute(
      'POST',
      '/api/v1/users',
      { email: `${unique('u')}@example.com`, role: 'member', name: 'N' },
      () => as(http().post('/api/v1/users')),
    ),
    bodyRoute('PATCH', '/api/v1/users/:id', { role: 'member' }, () =>
      as(http().patch(`/api/v1/users/${member.id}`)),
    ),
    bodyRoute(
      'POST',
      '/api/lease/checkout',
      { name: 'Dana', email: `${unique('b')}@example.com`, coupon: 'beta', source: 'plans' },
      () => http().post('/api/lease/checkout'),
    ),
    bodyRoute('PATCH', '/api/v1/org', { device_offline_after_seconds: 600 }, () =>
      as(http().patch('/api/v1/org')),
    ),
    bodyRoute(
      'POST',
      '/api/device/v1/heartbeat',
      { firmware_version: '1.0.0', battery_pct: 87 },
      () => http().post('/api/device/v1/heartbeat').set('Authorization', `Bearer ${bearer}`),
    ),
    {
      method: 'PATCH',
      pattern: '/api/v1/users/:id',
      fields: ['path'],
      send: (_, value) =>
        as(http().patch(`/api/v1/users/${pathSegment(value)}`)).send({ role: 'member' }),
    },
    {
      method: 'POST',
      pattern: '/api/v1/users/:id/revoke-sessions',
      fields: ['path'],
      send: (_, value) => as(http().post(`/api/v1/users/${pathSegment(value)}/revoke-sessions`)),
    },
    {
      method: 'DELETE',
      pattern: '/api/auth/sessions/:id',
      fields: ['path'],
      send: (_, value) => as(http().delete(`/api/auth/sessions/${pathSegment(value)}`)),
    },
    {
      method: 'DELETE',
      pattern: '/api/v1/devices/:device_id',
      fields: ['path'],
      send: (_, value) => as(http().delete(`/api/v1/devices/${pathSegment(value)}`)),
    },
    {
      method: 'GET',
      pattern: '/api/v1/devices',
      fields: ['cursor', 'limit', 'health'],
      send: (field, value) => as(http().get('/api/v1/devices')).query({ [field]: value }),
    },
    ...webhookEndpointRoutes(endpoint, (req) => as(req), http),
    {
      method: 'GET',
      pattern: '/api/v1/subscriptions',
      fields: ['status', 'email', 'cursor', 'limit'],
      send: (field, value) =>
        asOperator(http().get('/api/v1/subscriptions')).query({ [field]: value }),
    },
    {
      method: 'POST',
      pattern: '/api/v1/subscriptions/:id/erase',
      fields: ['path'],
      send: (_, value) =>
        asOperator(http().post(`/api/v1/subscriptions/${pathSegment(value)}/erase`)),
    },
    // A pending record: every valid body is a 409, nothing is shipped.
    bodyRoute(
      'PUT',
      '/api/v1/subscriptions/:id/device',
      { device_id: device.deviceId, carrier: 'UPS', tracking_number: '1Z999AA1' },
      () => asOperator(http().put(`/api/v1/subscriptions/${subscription.id}/device`)),
    ),
    {
      method: 'PUT',
      pattern: '/api/v1/subscriptions/:id/device',
      fields: ['path'],
      send: (_, value) =>
        asOperator(http().put(`/api/v1/subscriptions/${pathSegment(value)}/device`)).send({
          device_id: device.deviceId,
        }),
    },
    {
      method: 'GET',
      pattern: '/api/v1/subscriptions/:id/export',
      fields: ['path'],
      send: (_, value) =>
        asOperator(http().get(`/api/v1/subscriptions/${pathSegment(value)}/export`)),
    },
    {
      method: 'GET',
      pattern: '/api/v1/audit-events',
      fields: ['action', 'actor_id', 'subject_id', 'since', 'cursor', 'limit'],
      send: (field, value) => as(http().get('/api/v1/audit-events')).query({ [field]: value }),
    },
    {
      method: 'GET',
      pattern: '/api/v1/subscriptions/:id',
      fields: ['path'],
      send: (_, value) => asOperator(http().get(`/api/v1/subscriptions/${pathSegment(value)}`)),
    },
    {
      method: 'GET',
      pattern: '/api/lease/checkout-status',
      fields: ['session_id'],
      send: (field, value) =>
        http()
          .get('/api/lease/checkout-status')
          .query({ [field]: value }),
    },
    {
      method: 'POST',
      pattern: '/api/payment-processor/webhook',
      fields: [
        'customer_details.name',
        'customer_details.email',
        'custom_fields.0.text.value',
        'id',
      ],
      send: (field, value) => {
        const event = checkoutCompletedEvent(subscription.id);
        setPath(
          field === 'id'
            ? event
            : ((event.data as { object: object }).object as Record<string, unknown>),
          field,
          value,
        );
        const payload = JSON.stringify(event);
        return deliver(t, payload, sign(payload));
      },
    },
  ];
}

/** An endpoint of the admin's org to vary requests on: a closed loopback port, device keys only. */
async function webhookEndpointOf(t: TestApp, cookie: string): Promise<string> {
  const created = await t
    .http()
    .post('/api/v1/webhook-endpoints')
    .set('Cookie', cookie)
    .send({ url: 'http://127.0.0.1:9/hook', event_types: ['device.key_rotated'] })
    .expect(201);
  return (created.body as { id: string }).id;
}

/** The outgoing-webhook endpoint API: its bodies, its list query, and every path value. */
function webhookEndpointRoutes(
  id: string,
  as: (req: Test) => Test,
  http: () => ReturnType<TestApp['http']>,
): FuzzRoute[] {
  const base = '/api/v1/webhook-endpoints';
  const event = '00000000-0000-4000-8000-000000000000';
  const onPath = (method: FuzzRoute['method'], pattern: string, send: (v: string) => Test) => ({
    method,
    pattern,
    fields: ['path'],
    send: (_: string, value: string | null) => send(pathSegment(value)),
  });
  const body = (method: 'POST' | 'PATCH', pattern: string, make: () => Test): FuzzRoute => ({
    method,
    pattern,
    fields: ['url', 'description'],
    send: (field, value) =>
      make().send({ url: 'http://127.0.0.1:9/other', description: 'd', [field]: value }),
  });
  return [
    body('POST', base, () => as(http().post(base))),
    body('PATCH', `${base}/:id`, () => as(http().patch(`${base}/${id}`))),
    onPath('GET', `${base}/:id`, (v) => as(http().get(`${base}/${v}`))),
    onPath('PATCH', `${base}/:id`, (v) => as(http().patch(`${base}/${v}`)).send({ enabled: true })),
    onPath('DELETE', `${base}/:id`, (v) => as(http().delete(`${base}/${v}`))),
    onPath('POST', `${base}/:id/rotate-secret`, (v) =>
      as(http().post(`${base}/${v}/rotate-secret`)),
    ),
    onPath('POST', `${base}/:id/test`, (v) => as(http().post(`${base}/${v}/test`))),
    onPath('GET', `${base}/:id/deliveries`, (v) => as(http().get(`${base}/${v}/deliveries`))),
    {
      method: 'GET',
      pattern: `${base}/:id/deliveries`,
      fields: ['cursor', 'limit'],
      send: (field, value) => as(http().get(`${base}/${id}/deliveries`)).query({ [field]: value }),
    },
    onPath('POST', `${base}/:id/deliveries/:event_id/retry`, (v) =>
      as(http().post(`${base}/${id}/deliveries/${v}/retry`)),
    ),
    onPath('POST', `${base}/:id/deliveries/:event_id/retry`, (v) =>
      as(http().post(`${base}/${v}/deliveries/${event}/retry`)),
    ),
  ];
}

/**
 * The signed layer: a route's mutation (`value` in `field`) also sent to the webhook validly
 * signed, in three shapes: inside an event at the field's path, as the whole body's bytes, and
 * nested `depth` levels down under `__proto__`/`constructor` keys. Answers the three statuses.
 */
export async function sendSigned(
  t: TestApp,
  subscriptionId: string,
  field: string,
  value: string,
  depth: number,
): Promise<number[]> {
  const event = checkoutCompletedEvent(subscriptionId);
  const at: Record<string, unknown> = {};
  setPath(
    at,
    field
      .split('.')
      .map((k, i) => (i === 0 ? k : `x${k}`))
      .join('.'),
    value,
    true,
  );
  Object.assign((event.data as { object: object }).object, at);
  let nested: unknown = value;
  for (let i = 0; i < depth; i++)
    nested = i % 2 ? [nested] : { [i % 3 ? 'constructor' : 'k']: nested };
  const poisoned = `{"__proto__":${JSON.stringify({ type: 'checkout.session.completed', v: nested })},"id":"evt_${unique('p')}","data":{"object":{}}}`;
  const statuses: number[] = [];
  for (const payload of [JSON.stringify(event), value, poisoned]) {
    statuses.push((await deliver(t, payload, sign(payload))).status);
  }
  return statuses;
}

function setPath(
  target: Record<string, unknown>,
  path: string,
  value: unknown,
  create = false,
): void {
  const keys = path.split('.');
  let node: Record<string, unknown> = target;
  for (const key of keys.slice(0, -1)) {
    if (create) node[key] ??= {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]] = value;
}

/**
 * The rule every answer must keep: never a 5xx; text the database cannot keep is a 400
 * validation_failed naming the field (the webhook alone takes it, cleaned, with a 200).
 */
export function expectRightAnswer(
  route: FuzzRoute,
  field: string,
  value: string,
  res: { status: number; body: Record<string, unknown> },
): void {
  const where = `${route.method} ${route.pattern} ${field}=${JSON.stringify(value).slice(0, 80)}`;
  if (res.status >= 500) throw new Error(`${where}: ${res.status} ${JSON.stringify(res.body)}`);
  if (route.pattern.endsWith('/webhook')) {
    if (res.status !== 200) throw new Error(`${where}: the webhook answered ${res.status}`);
    return;
  }
  if (field === 'path' || !unstorableReason(value)) return;
  // A value in the URL that grows past Node's header limit once percent-encoded (every NUL is
  // three characters) is refused before any route sees it: 431, also a right answer.
  if (route.method === 'GET' && res.status === 431 && res.body.code === 'headers_too_large') return;
  const errors = (res.body.errors ?? []) as { field: string }[];
  if (
    res.status !== 400 ||
    res.body.code !== 'validation_failed' ||
    !errors.some((e) => e.field === field)
  ) {
    throw new Error(
      `${where}: expected 400 validation_failed naming ${field}, got ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`,
    );
  }
}

/** Seed from FUZZ_SEED (to replay a failure) or the given default; printed so any run can be replayed. */
export function fuzzSeed(fallback: number): number {
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : fallback;
  process.stdout.write(`input fuzz seed: ${seed} (replay with FUZZ_SEED=${seed})\n`);
  return seed;
}
