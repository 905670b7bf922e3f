/**
 * The work of the bench's yardstick, without a framework: the same SQL and the same crypto as
 * the service for each measured endpoint, with the same pool size, checking nothing the measured
 * requests do not need. Served by `bare-nest.ts` (a bare Nest app on Express).
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { Pool } from 'pg';
import { detailHandler } from './reference-detail';
import { paymentHandlers } from './reference-payments';
import { fleetHandlers } from './reference-fleet';

const env = (name: string, fallback?: string): string => {
  const value = process.env[name] ?? fallback;
  if (value === undefined) throw new Error(`${name} is required`);
  return value;
};

export const pool = new Pool({
  connectionString: env('DATABASE_URL'),
  max: Number(env('DATABASE_POOL_SIZE', '10')),
});
const cookieName = env('SESSION_COOKIE_NAME', 'service_session');
const idleTtlMs = Number(env('SESSION_IDLE_TTL_SECONDS', '1800')) * 1000;
const touchIntervalMs = Math.min(60_000, idleTtlMs / 10);
const { deviceToken, heartbeat } = fleetHandlers(pool);
const { webhook, checkout } = paymentHandlers(pool, {
  webhookSecret: env('STRIPE_WEBHOOK_SECRET'),
  processor: new URL(env('STRIPE_API_BASE')),
  stripeKey: env('STRIPE_SECRET_KEY'),
  siteUrl: env('SITE_URL', 'http://localhost:3000'),
});

/** The request's headers and exact body bytes in, the status and JSON payload out. */
export type Handler = (req: IncomingMessage, body: Buffer, url: URL) => Promise<[number, unknown]>;

const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

async function health(): Promise<[number, unknown]> {
  await pool.query('SELECT 1');
  return [200, { status: 'ok', checks: { database: 'up' }, version: '0.1.0' }];
}

const SESSION_SQL =
  'SELECT s.id, s.last_used_at, s.expires_at, s.idle_expires_at, s.revoked_at, u.id AS user_id, ' +
  'u.email, u.name, u.org_id, u.role, u.disabled ' +
  'FROM sessions s INNER JOIN users u ON u.id = s.user_id WHERE s.token_hash = $1';

interface SessionRow {
  id: string;
  last_used_at: Date;
  expires_at: Date;
  idle_expires_at: Date;
  revoked_at: Date | null;
  user_id: string;
  email: string;
  name: string | null;
  org_id: string;
  role: string;
  disabled: boolean;
}

/** The session behind the cookie, touched at most once per interval as the service does. */
async function session(req: IncomingMessage): Promise<SessionRow | undefined> {
  const token = readCookie(req.headers.cookie ?? '', cookieName);
  if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) return undefined;
  const hash = createHash('sha256').update(token).digest('hex');
  const { rows } = await pool.query<SessionRow>(SESSION_SQL, [hash]);
  const s = rows[0];
  const now = new Date();
  if (!s || s.revoked_at || s.disabled || s.expires_at <= now || s.idle_expires_at <= now) {
    return undefined;
  }
  if (now.getTime() - s.last_used_at.getTime() >= touchIntervalMs) {
    await pool.query('UPDATE sessions SET last_used_at = $1, idle_expires_at = $2 WHERE id = $3', [
      now,
      new Date(now.getTime() + idleTtlMs),
      s.id,
    ]);
  }
  return s;
}

async function me(req: IncomingMessage): Promise<[number, unknown]> {
  const s = await session(req);
  if (!s) return [401, { code: 'unauthenticated' }];
  const { user_id: id, email, name, org_id, role } = s;
  return [200, { user: { id, email, name, org_id, role } }];
}

async function devices(req: IncomingMessage, _b: Buffer, url: URL): Promise<[number, unknown]> {
  const s = await session(req);
  if (!s) return [401, { code: 'unauthenticated' }];
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

/** `METHOD /path` to its handler. */
export const routes: Record<string, Handler> = {
  'GET /health': health,
  'GET /api/auth/me': me,
  'GET /api/v1/devices': devices,
  'POST /auth/device': deviceToken,
  'POST /api/device/v1/heartbeat': heartbeat,
  'POST /api/payment-processor/webhook': webhook,
  'POST /api/lease/checkout': checkout,
  'GET /api/v1/subscriptions/:id': detailHandler(pool, session),
};
