import fc from 'fast-check';
import { WEBHOOK_PATH } from '../../src/processor-webhook/processor-webhook.controller';
import { signIn } from '../support/auth';
import { processorEnv } from '../support/checkout';
import { deviceToken } from '../support/devices';
import { createDevice } from '../support/factories';
import { FakeProcessor } from '../support/fake-processor';
import { sign } from '../support/processor-events';
import { createTestApp, TestApp } from '../support/test-app';
import { WEBHOOK_ENV } from '../support/webhook';
import { recordFigure } from './support/figures';
import { routes } from '../support/routes';
import { HIGH_LIMITS } from './support/rel';
import { encodeKeysetCursor } from '../../src/common/pagination/keyset-cursor';
import { CRAFTED_CURSOR_TIMES } from '../support/crafted-cursors';
import { createFulfilmentOrg, newFulfilmentOrgId } from '../support/subscriptions';

/**
 * Field names the DTOs know, so generated bodies reach the validators, not only the whitelist
 * (null among the values: the input fuzz sends it in every optional field of a valid body).
 */
const FIELDS = [
  'id_token',
  'device_id',
  'model',
  'provider',
  'email',
  'role',
  'name',
  'disabled',
  'coupon',
  'source',
  'contains_phi',
  'firmware_version',
  'battery_pct',
  'limit',
  'cursor',
  'assertion',
  'public_key',
  'url',
  'description',
  'event_types',
  'enabled',
  'status',
];
const NASTY_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];

const key = fc.oneof(fc.constantFrom(...FIELDS, ...NASTY_KEYS), fc.string({ maxLength: 12 }));
const wrongType = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.string({ unit: 'binary', maxLength: 50 }),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 3 }),
);
/** Raw JSON text: fields of every type, pollution attempts, deep nesting, huge strings. */
const jsonText = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.dictionary(key, wrongType, { maxKeys: 6 }).map((o) => JSON.stringify(o)),
  },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)) },
  {
    weight: 2,
    arbitrary: fc
      .tuple(fc.constantFrom(...FIELDS), fc.constantFrom(...NASTY_KEYS), wrongType)
      .map(
        ([f, k, v]) =>
          `{"${f}":${JSON.stringify(v)},"${k}":{"polluted":"yes","${f}":1},` +
          `"constructor":{"prototype":{"polluted":"yes"}},"__proto__":{"isAdmin":true}}`,
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...FIELDS), fc.integer({ min: 100, max: 12_000 }), fc.boolean())
      .map(([f, depth, arr]) =>
        arr
          ? `{"${f}":${'['.repeat(depth)}1${']'.repeat(depth)}}`
          : `{"${f}":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}}`,
      ),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...FIELDS), fc.integer({ min: 1_000, max: 80_000 }))
      .map(([f, n]) => `{"${f}":"${'x'.repeat(n)}"}`),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 40 }) }, // mostly not JSON at all
);
/** Bytes that are not valid UTF-8, inside a JSON string or bare. */
const invalidUtf8 = fc
  .tuple(
    fc.constantFrom(...FIELDS),
    fc.uint8Array({ minLength: 1, maxLength: 16 }),
    fc.constantFrom(
      [0xff],
      [0xc3, 0x28],
      [0xe2, 0x82],
      [0xf0, 0x28, 0x8c, 0x28],
      [0xed, 0xa0, 0x80],
    ),
  )
  .map(([f, noise, bad]) =>
    Buffer.concat([
      Buffer.from(`{"${f}":"`),
      Buffer.from(bad),
      Buffer.from(noise.filter((b) => b !== 0x22 && b !== 0x5c)),
      Buffer.from('"}'),
    ]),
  );
/**
 * Text that grows once the service stores it: lower-cased (`İ` becomes two code points), counted
 * by PostgreSQL rather than validator.js (a letter with U+FE0F), or percent-encoded in a URL (`é`
 * becomes `%C3%A9`); `ẞ`, `ﬃ`, `ǅ` and `😀` change length under other foldings and encodings.
 */
const GROWING = fc.oneof(
  { weight: 3, arbitrary: fc.constant('İ') },
  { weight: 3, arbitrary: fc.constant('a\uFE0F') },
  { weight: 2, arbitrary: fc.constantFrom('ẞ', 'ﬃ', 'é', 'ǅ', '😀') },
);
/** Text fields the DTOs bound, with their bound: a value within it as validator.js counts. */
const BOUNDED: [field: string, max: number][] = [
  ['name', 120],
  ['coupon', 100],
  ['email', 160],
  ['model', 100],
  ['provider', 100],
  ['firmware_version', 64],
  ['description', 500],
];
const grownUrl = fc
  .tuple(GROWING, fc.integer({ min: 200, max: 2000 }), fc.boolean())
  .map(([unit, n, inHost]) => {
    const grown = unit.repeat(Math.ceil(n / unit.length));
    const url = inHost
      ? `https://${grown.slice(0, 60)}.example.com/`
      : `https://hooks.example.com/${grown}`;
    return url.slice(0, 2048);
  });
/** One field (the others of most DTOs are optional), just within its bound until it is stored. */
const grownBody = fc
  .oneof(
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom(...BOUNDED), GROWING, fc.double({ min: 0.51, max: 1, noNaN: true }))
        .map(([[field, max], unit, share]) => {
          const text = unit.repeat(Math.ceil(max * share));
          return { [field]: field === 'email' ? `${text.slice(0, 40)}@example.com` : text };
        }),
    },
    { weight: 1, arbitrary: grownUrl.map((url) => ({ url })) },
  )
  .map((o) => Buffer.from(JSON.stringify(o)));
/** Cursors a client could forge: one per crafted time, and fields of every odd shape. */
const craftedCursor = fc.oneof(
  fc
    .tuple(fc.constantFrom(...CRAFTED_CURSOR_TIMES), fc.uuid())
    .map(([at, id]) => encodeKeysetCursor({ at, id })),
  fc
    .dictionary(fc.constantFrom('at', 'id', 'after', 'name'), wrongType, { maxKeys: 4 })
    .map((o) => Buffer.from(JSON.stringify({ v: 1, ...o })).toString('base64url')),
  fc
    .tuple(fc.date({ noInvalidDate: true }), fc.uuid())
    .map(([d, id]) => encodeKeysetCursor({ at: `${d.toISOString().slice(0, 23)}123Z`, id })),
);

const body = fc.oneof(
  { weight: 5, arbitrary: jsonText.map((s) => Buffer.from(s)) },
  { weight: 1, arbitrary: invalidUtf8 },
);
const queryString = fc.oneof(
  fc
    .dictionary(
      fc.oneof(
        fc.constantFrom(
          'limit',
          'cursor',
          'limit[]',
          'cursor[a]',
          '__proto__[x]',
          'a[__proto__][b]',
        ),
        fc.string({ maxLength: 10 }),
      ),
      fc.oneof(
        fc.string({ maxLength: 200 }),
        fc.integer().map(String),
        fc.constant('x'.repeat(5000)),
      ),
      { maxKeys: 5 },
    )
    .map((o) => new URLSearchParams(o).toString()),
  fc.constantFrom(
    '%',
    '%E0%A4%A',
    '%ff%fe',
    'limit=%00',
    'a[b][c][d][e][f][g][h]=1',
    'limit=1&limit=2',
  ),
  fc.string({ maxLength: 60 }).map((s) => encodeURI(s)),
);

describe('bad input never causes a 5xx', () => {
  let fake: FakeProcessor;
  let t: TestApp;
  let cookie: string;
  let bearer: string;
  const statuses = new Map<string, number>();
  let cases = 0;
  let fiveXx = 0;
  const failures: string[] = [];
  let unhandled = 0;
  let webhookAccepted = 0;
  const onUnhandled = () => unhandled++;
  const protoBefore = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
  const fulfilmentOrgId = newFulfilmentOrgId();

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    fake = await new FakeProcessor().start();
    t = await createTestApp({
      env: {
        ...processorEnv(fake.url),
        ...WEBHOOK_ENV,
        ...HIGH_LIMITS,
        FULFILMENT_ORG_ID: fulfilmentOrgId,
      },
    });
    await createFulfilmentOrg(t.app, fulfilmentOrgId);
    const admin = await signIn(t, { role: 'admin' });
    cookie = admin.cookie;
    bearer = await deviceToken(t, await createDevice(t.app, admin.user.orgId));
  });
  afterAll(async () => {
    process.off('unhandledRejection', onUnhandled);
    await t.close();
    await fake.stop();
  });

  /** One request with the credentials its route takes; counts it and remembers any 5xx. */
  async function send(method: string, url: string, payload?: Buffer, signed = false) {
    let req = t.http()[method.toLowerCase() as 'post'](url);
    if (url.startsWith('/api/device/')) req = req.set('Authorization', `Bearer ${bearer}`);
    // logout and refresh would end the session the other cases rely on
    else if (!/^\/api\/auth\/(logout|refresh)/.test(url)) req = req.set('Cookie', cookie);
    if (payload !== undefined) {
      req = req.set('Content-Type', 'application/json');
      if (signed) req = req.set('Stripe-Signature', sign(payload.toString('utf8')));
    }
    // superagent would JSON-encode a Buffer ({"type":"Buffer",...}); send the exact bytes instead
    // (its typings say string, its node transport writes a Buffer as it is).
    const raw = () => payload as unknown as string;
    const res = payload !== undefined ? await req.serialize(raw).send(payload) : await req;
    cases++;
    statuses.set(String(res.status), (statuses.get(String(res.status)) ?? 0) + 1);
    if (res.status >= 500) {
      fiveXx++;
      if (failures.length < 20) {
        failures.push(
          `${method} ${url} -> ${res.status} ${res.text.slice(0, 200)} body=${payload?.toString('utf8').slice(0, 200)}`,
        );
      }
    }
    if (signed) webhookAccepted += res.status === 200 ? 1 : 0;
    return res.status;
  }

  const fill = (path: string, value: string) => path.replace(/:[A-Za-z_]+/g, value);
  const bodyRoutes = () =>
    routes(t).filter(([m]) => ['POST', 'PATCH', 'DELETE', 'PUT'].includes(m));
  const getRoutes = () => routes(t).filter(([m]) => m === 'GET');

  it('answers every generated body on every POST/PATCH/DELETE route below 500', async () => {
    expect(bodyRoutes().length).toBeGreaterThanOrEqual(9);
    for (const [method, path] of bodyRoutes()) {
      await fc.assert(
        fc.asyncProperty(body, async (b) => (await send(method, fill(path, 'x-1'), b)) < 500),
        { numRuns: 70, endOnFailure: true },
      );
    }
  });

  it('answers signed webhook events of any shape below 500 (a 5xx makes the processor retry forever)', async () => {
    const event = fc.record(
      {
        id: fc.oneof(fc.string({ maxLength: 30 }), fc.integer(), fc.constant(null)),
        type: fc.oneof(
          fc.constantFrom(
            'checkout.session.completed',
            'checkout.session.async_payment_succeeded',
            'checkout.session.expired',
          ),
          fc.string({ maxLength: 20 }),
          fc.integer(),
        ),
        data: fc.oneof(
          fc.constant(null),
          fc.string(),
          fc.record({
            object: fc.oneof(
              fc.constant(null),
              fc.string(),
              fc.dictionary(
                fc.constantFrom(
                  'metadata',
                  'payment_status',
                  'client_reference_id',
                  'id',
                  'custom_fields',
                  'customer_details',
                  'collected_information',
                ),
                wrongType,
              ),
            ),
          }),
        ),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(
        event,
        async (e) => (await send('POST', WEBHOOK_PATH, Buffer.from(JSON.stringify(e)), true)) < 500,
      ),
      { numRuns: 150, endOnFailure: true },
    );
    // The signatures were right, so the events reached the handlers rather than the signature check.
    expect(webhookAccepted).toBeGreaterThan(100);
  });

  it('answers every generated query string on every GET route, and odd path values, below 500', async () => {
    for (const [method, path] of getRoutes()) {
      await fc.assert(
        fc.asyncProperty(
          queryString,
          async (q) => (await send(method, `${fill(path, 'x')}?${q}`)) < 500,
        ),
        { numRuns: 40, endOnFailure: true },
      );
    }
    const withParams = routes(t).filter(([, p]) => p.includes('/:'));
    for (const [method, path] of withParams) {
      await fc.assert(
        fc.asyncProperty(
          fc.string({ minLength: 1, maxLength: 300 }),
          async (v) =>
            (await send(
              method,
              fill(path, encodeURIComponent(v)),
              method === 'GET' ? undefined : Buffer.from('{}'),
            )) < 500,
        ),
        { numRuns: 40, endOnFailure: true },
      );
    }
  });

  it('answers text that grows when stored, and crafted cursors, below 500', async () => {
    // A session that sees every list: subscriptions are the fulfilment org's, deliveries need an endpoint.
    const operator = await signIn(t, { orgId: fulfilmentOrgId, role: 'admin' });
    const created = await t
      .http()
      .post('/api/v1/webhook-endpoints')
      .set('Cookie', operator.cookie)
      .send({ url: 'https://hooks.example.com/in' })
      .expect(201);
    const withCookie = async (method: string, url: string, payload?: Buffer) => {
      const saved = cookie;
      cookie = operator.cookie;
      try {
        return await send(method, url, payload);
      } finally {
        cookie = saved;
      }
    };
    // The lists first: a DELETE among the body routes may remove the endpoint.
    for (const [method, path] of getRoutes().filter(
      ([, p]) => !p.includes('/:') || p.endsWith('/deliveries'),
    )) {
      await fc.assert(
        fc.asyncProperty(
          craftedCursor,
          async (c) =>
            (await withCookie(method, `${fill(path, created.body.id as string)}?cursor=${c}`)) <
            500,
        ),
        { numRuns: 40, endOnFailure: true },
      );
    }
    for (const [method, path] of bodyRoutes()) {
      await fc.assert(
        fc.asyncProperty(
          grownBody,
          async (b) => (await withCookie(method, fill(path, created.body.id as string), b)) < 500,
        ),
        { numRuns: 40, endOnFailure: true },
      );
    }
  });

  it('leaves the process alive and Object.prototype untouched', async () => {
    await t.http().get('/health/live').expect(200);
    const protoAfter = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
    const probe = {} as Record<string, unknown>;
    const polluted = ['polluted', 'isAdmin', 'a', 'x', 'b'].filter((k) => probe[k] !== undefined);
    recordFigure(
      'Bad input',
      'generated requests (bodies, signed events, queries, path values)',
      cases,
      '>= 1000',
    );
    recordFigure('Bad input', 'responses 5xx', fiveXx, '0');
    recordFigure(
      'Bad input',
      'status mix',
      [...statuses]
        .sort()
        .map(([s, n]) => `${s}:${n}`)
        .join(' '),
      'only 2xx/4xx',
    );
    recordFigure(
      'Bad input',
      'Object.prototype changed / polluted keys',
      `${protoAfter === protoBefore ? 'no' : 'YES'} / ${polluted.length}`,
      'no / 0',
    );
    recordFigure(
      'Bad input',
      'process alive after the run; unhandled rejections',
      `yes; ${unhandled}`,
      'yes; 0',
    );
    expect(failures).toEqual([]);
    expect(cases).toBeGreaterThanOrEqual(1000);
    expect(fiveXx).toBe(0);
    expect(protoAfter).toBe(protoBefore);
    expect(polluted).toEqual([]);
    expect(unhandled).toBe(0);
  });
});
