/**
 * The bare twin: node:http + pg, no framework, doing the same SQL and the same crypto as the
 * service for each measured endpoint, with the same pool size. It is the yardstick the bench
 * divides by; it checks nothing the measured requests do not need.
 */
import { createHash, createHmac, createSecretKey, randomUUID, timingSafeEqual } from 'node:crypto';
import { createServer, IncomingMessage, request, ServerResponse } from 'node:http';
import { Pool } from 'pg';

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
};

const pool = new Pool({
  connectionString: env('DATABASE_URL'),
  max: Number(env('DATABASE_POOL_SIZE', '10')),
});
const cookieName = env('SESSION_COOKIE_NAME', 'service_session');
const idleTtlMs = Number(env('SESSION_IDLE_TTL_SECONDS', '1800')) * 1000;
const tokenKey = createSecretKey(Buffer.from(env('DEVICE_TOKEN_SECRET'), 'utf8'));
const tokenTtl = Number(env('DEVICE_TOKEN_TTL_SECONDS', '900'));
const webhookSecret = env('STRIPE_WEBHOOK_SECRET');
const processor = new URL(env('STRIPE_API_BASE'));
const stripeKey = env('STRIPE_SECRET_KEY');
const siteUrl = env('SITE_URL', 'http://localhost:3000');

type Handler = (req: IncomingMessage, body: Buffer, url: URL) => Promise<[number, unknown]>;

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();
const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

async function health(): Promise<[number, unknown]> {
  await pool.query('SELECT 1');
  return [200, { status: 'ok', checks: { database: 'up' }, version: '0.1.0' }];
}

const SESSION_SQL =
  'SELECT s.id, s.expires_at, s.idle_expires_at, s.revoked_at, u.id AS user_id, u.email, u.name, ' +
  'u.org_id, u.role, u.disabled FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1';

interface SessionRow {
  id: string;
  expires_at: Date;
  idle_expires_at: Date;
  revoked_at: Date | null;
  org_id: string;
  disabled: boolean;
}

async function devices(req: IncomingMessage, _b: Buffer, url: URL): Promise<[number, unknown]> {
  const token = readCookie(req.headers.cookie ?? '', cookieName);
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return [401, { code: 'unauthenticated' }];
  const hash = createHash('sha256').update(token).digest('hex');
  const { rows } = await pool.query<SessionRow>(SESSION_SQL, [hash]);
  const s = rows[0];
  const now = new Date();
  if (!s || s.revoked_at || s.disabled || s.expires_at <= now || s.idle_expires_at <= now) {
    return [401, { code: 'unauthenticated' }];
  }
  await pool.query('UPDATE sessions SET last_used_at = $1, idle_expires_at = $2 WHERE id = $3', [
    now,
    new Date(now.getTime() + idleTtlMs),
    s.id,
  ]);
  const limit = Number(url.searchParams.get('limit') ?? 50);
  const list = await pool.query<{
    device_id: string;
    model: string;
    provider: string;
    status: string;
    last_seen_at: Date | null;
    created_at: Date;
  }>(
    'SELECT device_id, model, provider, status, last_seen_at, created_at FROM devices ' +
      'WHERE org_id = $1 ORDER BY device_id ASC LIMIT $2',
    [s.org_id, limit + 1],
  );
  const items = list.rows.slice(0, limit).map((d) => ({
    device_id: d.device_id,
    model: d.model,
    provider: d.provider,
    status: d.status,
    last_seen_at: d.last_seen_at ? d.last_seen_at.toISOString() : null,
    created_at: d.created_at.toISOString(),
  }));
  const more = list.rows.length > limit;
  const last = items[items.length - 1]?.device_id;
  return [200, { items, next_cursor: more ? b64url({ v: 1, after: last }) : null }];
}

function readCookie(header: string, name: string): string | undefined {
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name)
      return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

async function deviceToken(_r: IncomingMessage, body: Buffer): Promise<[number, unknown]> {
  const claim = JSON.parse(body.toString('utf8')) as Record<string, string>;
  const { rows } = await pool.query<{
    device_id: string;
    org_id: string;
    model: string;
    provider: string;
    status: string;
  }>(
    'SELECT id, org_id, device_id, model, provider, status, last_seen_at, firmware_version, battery_pct, ' +
      'deactivated_at, created_at, updated_at FROM devices WHERE device_id = $1 LIMIT 1',
    [claim.device_id],
  );
  const d = rows[0];
  const stored = d ?? { model: '\u0000', provider: '\u0000', status: 'deactivated' };
  const ok = [
    d !== undefined,
    timingSafeEqual(sha256(stored.model), sha256(claim.model)),
    timingSafeEqual(sha256(stored.provider), sha256(claim.provider)),
    timingSafeEqual(sha256(stored.status), sha256('active')),
  ].every(Boolean);
  if (!ok || !d) return [401, { code: 'invalid_device' }];
  const now = Math.floor(Date.now() / 1000);
  const header = b64url({ alg: 'HS256', typ: 'device+jwt' });
  const payload = b64url({
    org_id: d.org_id,
    iat: now,
    exp: now + tokenTtl,
    aud: 'device',
    sub: d.device_id,
    jti: randomUUID(),
  });
  const sig = createHmac('sha256', tokenKey).update(`${header}.${payload}`).digest('base64url');
  return [
    200,
    {
      access_token: `${header}.${payload}.${sig}`,
      token_type: 'Bearer',
      expires_in: tokenTtl,
      expires_at: new Date((now + tokenTtl) * 1000).toISOString(),
    },
  ];
}

interface CheckoutSession {
  id: string;
  payment_status: string;
  metadata?: { subscription_id?: string };
  customer: string | null;
  subscription: string | null;
  customer_details?: { email: string | null; name: string | null; phone: string | null };
  collected_information?: { shipping_details?: { address?: Record<string, string | null> } };
  custom_fields?: {
    key: string;
    text?: { value: string | null };
    dropdown?: { value: string | null };
  }[];
}

function verifyEvent(
  body: Buffer,
  header: string,
): { id: string; type: string; data: { object: CheckoutSession } } | undefined {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const t = Number(parts.t);
  if (!parts.v1 || !Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return undefined;
  const expected = createHmac('sha256', webhookSecret)
    .update(`${parts.t}.${body.toString('utf8')}`)
    .digest('hex');
  const given = Buffer.from(parts.v1, 'utf8');
  if (given.length !== expected.length || !timingSafeEqual(Buffer.from(expected, 'utf8'), given))
    return undefined;
  return JSON.parse(body.toString('utf8')) as {
    id: string;
    type: string;
    data: { object: CheckoutSession };
  };
}

async function webhook(req: IncomingMessage, body: Buffer): Promise<[number, unknown]> {
  const event = verifyEvent(body, String(req.headers['stripe-signature'] ?? ''));
  if (!event) return [400, { code: 'invalid_signature' }];
  const client = await pool.connect();
  try {
    await client.query('START TRANSACTION');
    const ins = await client.query(
      'INSERT INTO processed_webhook_events (id, type, outcome, received_at) VALUES ($1, $2, $3, DEFAULT) ' +
        'ON CONFLICT DO NOTHING RETURNING id, received_at',
      [event.id, event.type.slice(0, 100), 'received'],
    );
    if (ins.rows.length > 0) {
      const s = event.data.object;
      const field = (k: string) => s.custom_fields?.find((f) => f.key === k);
      const a = s.collected_information?.shipping_details?.address;
      const address = a
        ? [a.line1, a.line2, a.city, [a.state, a.postal_code].filter(Boolean).join(' '), a.country]
            .filter((p) => p)
            .join(', ')
        : null;
      const upd = await client.query(
        'UPDATE subscriptions SET customer_email = $1, customer_name = $2, customer_phone = $3, recipient_name = $4, ' +
          'living_situation = $5, primary_concern = $6, shipping_address = $7, recipient_zip = $8, ' +
          'processor_subscription_id = $9, processor_customer_id = $10, status = $11, paid_at = now(), ' +
          'checkout_session_id = $12, updated_at = CURRENT_TIMESTAMP WHERE id = $13 AND status = $14',
        [
          s.customer_details?.email ?? null,
          s.customer_details?.name ?? null,
          s.customer_details?.phone ?? null,
          field('recipient_name')?.text?.value ?? null,
          field('living_situation')?.dropdown?.value ?? null,
          field('primary_concern')?.dropdown?.value ?? null,
          address,
          a?.postal_code ?? null,
          s.subscription,
          s.customer,
          'paid',
          s.id,
          s.metadata?.subscription_id,
          'pending',
        ],
      );
      await client.query('UPDATE processed_webhook_events SET outcome = $1 WHERE id = $2', [
        upd.rowCount ? 'applied' : 'already_paid',
        event.id,
      ]);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK');
    throw err;
  } finally {
    client.release();
  }
  return [200, { received: true }];
}

/** The processor's form encoding (`a[b][0][c]=v`), as the SDK sends it. */
function form(value: unknown, prefix = '', out: string[] = []): string[] {
  if (value === null || value === undefined) return out;
  if (typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) form(v, prefix ? `${prefix}[${k}]` : k, out);
  } else {
    out.push(`${encodeURIComponent(prefix)}=${encodeURIComponent(String(value))}`);
  }
  return out;
}

function openSession(
  subscriptionId: string,
  email: string | undefined,
): Promise<{ id: string; url: string }> {
  const metadata = { product: 'lease', subscription_id: subscriptionId };
  const body = form({
    mode: 'subscription',
    line_items: [
      { price: 'price_lease', quantity: 1 },
      { price: 'price_monthly', quantity: 1 },
    ],
    customer_email: email,
    phone_number_collection: { enabled: true },
    shipping_address_collection: { allowed_countries: ['US'] },
    client_reference_id: subscriptionId,
    metadata,
    subscription_data: { metadata },
    success_url: `${siteUrl}/plans/success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${siteUrl}/plans/cancel`,
  }).join('&');
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: processor.hostname,
        port: processor.port,
        method: 'POST',
        path: '/v1/checkout/sessions',
        headers: {
          authorization: `Bearer ${stripeKey}`,
          'content-type': 'application/x-www-form-urlencoded',
          'content-length': Buffer.byteLength(body),
          'idempotency-key': `checkout-session-${subscriptionId}`,
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () =>
          resolve(
            JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string; url: string },
          ),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

async function checkout(_r: IncomingMessage, body: Buffer): Promise<[number, unknown]> {
  const dto = JSON.parse(body.toString('utf8')) as {
    name?: string;
    email?: string;
    source?: string;
  };
  const { rows } = await pool.query<{ id: string }>(
    'INSERT INTO subscriptions (id, product, status, name, email, coupon, source, lease_cents, monthly_cents, currency, ' +
      'created_at, updated_at) VALUES (DEFAULT, $1, $2, $3, $4, $5, $6, $7, $8, $9, DEFAULT, DEFAULT) ' +
      'RETURNING id, created_at, updated_at',
    [
      'lease',
      'pending',
      dto.name ?? null,
      dto.email ?? null,
      null,
      dto.source ?? 'plans',
      24900,
      5000,
      'usd',
    ],
  );
  const id = rows[0].id;
  const session = await openSession(id, dto.email);
  await pool.query(
    'UPDATE subscriptions SET checkout_session_id = $1, updated_at = CURRENT_TIMESTAMP WHERE id IN ($2)',
    [session.id, id],
  );
  return [
    200,
    {
      ok: true,
      subscription_id: id,
      checkout_url: session.url,
      lease_cents: 24900,
      monthly_cents: 5000,
      currency: 'usd',
    },
  ];
}

const routes: Record<string, Handler> = {
  'GET /health': health,
  'GET /api/v1/devices': devices,
  'POST /auth/device': deviceToken,
  'POST /api/payment-processor/webhook': webhook,
  'POST /api/lease/checkout': checkout,
};

function send(res: ServerResponse, status: number, payload: unknown): void {
  const json = JSON.stringify(payload);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(json),
  });
  res.end(json);
}

const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const url = new URL(req.url ?? '/', 'http://twin');
    const handler = routes[`${req.method} ${url.pathname}`];
    if (!handler) return send(res, 404, { code: 'not_found' });
    handler(req, Buffer.concat(chunks), url).then(
      ([status, payload]) => send(res, status, payload),
      (err: unknown) => send(res, 500, { code: 'internal_error', detail: String(err) }),
    );
  });
});

server.listen(Number(env('PORT')), '127.0.0.1');
process.on('SIGTERM', () => {
  server.close();
  void pool.end();
});
