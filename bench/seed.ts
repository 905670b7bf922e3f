import { createHash, randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';

export const BENCH_DEVICES = 10_000;
export const OTHER_ORGS = 3;
export const OTHER_ORG_DEVICES = 500;
/** Pending subscriptions the webhook events pay, one per event, so each event does the full work. */
export const PENDING_SUBSCRIPTIONS = 300_000;
export const DEVICE_MODEL = 'hub-2';
export const DEVICE_PROVIDER = 'acme';

export interface Seeded {
  orgId: string;
  sessionToken: string;
}

/** The n-th seeded pending subscription's id (a valid v4-shaped UUID, so the handler accepts it). */
export function subscriptionId(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}

export function deviceId(n: number): string {
  return `bench-${String(n).padStart(5, '0')}`;
}

/**
 * Rows inserted directly (the schema comes from the service's own migrations, run at its first boot):
 * the measured org with 10 000 devices, a few other orgs, an admin with a live session, and pending
 * subscriptions for the webhook to pay.
 */
export async function seed(url: string): Promise<Seeded> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    return await seedRows(db);
  } finally {
    await db.end();
  }
}

/**
 * The same rows written straight into an embedded data directory, while no service has it open
 * (its first boot ran the migrations): the service's socket is for the service alone.
 */
export async function seedEmbedded(dataDir: string): Promise<Seeded> {
  const db = await PGlite.create(dataDir);
  try {
    return await seedRows(db);
  } finally {
    await db.close();
  }
}

/** What both a `pg` client and PGlite answer. */
interface Queryable {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

async function seedRows(db: Queryable): Promise<Seeded> {
  const org = await db.query<{ id: string }>(
    `INSERT INTO organizations (name) VALUES ('Bench org') RETURNING id`,
  );
  const orgId = org.rows[0].id;
  await db.query(
    `INSERT INTO devices (org_id, device_id, model, provider, status)
     SELECT $1, 'bench-' || lpad(i::text, 5, '0'), $2, $3, 'active'
     FROM generate_series(0, $4 - 1) AS i`,
    [orgId, DEVICE_MODEL, DEVICE_PROVIDER, BENCH_DEVICES],
  );
  for (let o = 0; o < OTHER_ORGS; o++) {
    const other = await db.query<{ id: string }>(
      `INSERT INTO organizations (name) VALUES ($1) RETURNING id`,
      [`Other org ${o}`],
    );
    await db.query(
      `INSERT INTO devices (org_id, device_id, model, provider)
       SELECT $1, 'other' || $2 || '-' || lpad(i::text, 5, '0'), 'hub-1', 'acme'
       FROM generate_series(0, $3 - 1) AS i`,
      [other.rows[0].id, o, OTHER_ORG_DEVICES],
    );
  }
  const user = await db.query<{ id: string }>(
    `INSERT INTO users (org_id, email, name, role) VALUES ($1, 'bench@example.com', 'Bench', 'admin')
     RETURNING id`,
    [orgId],
  );
  const sessionToken = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO sessions (token_hash, user_id, created_at, last_used_at, expires_at, idle_expires_at)
     VALUES ($1, $2, now(), now(), now() + interval '12 hours', now() + interval '30 minutes')`,
    [createHash('sha256').update(sessionToken).digest('hex'), user.rows[0].id],
  );
  await db.query(
    `INSERT INTO subscriptions (id, product, status, source, lease_cents, monthly_cents, currency)
     SELECT ('00000000-0000-4000-8000-' || lpad(to_hex(i), 12, '0'))::uuid,
            'lease', 'pending', 'plans', 24900, 5000, 'usd'
     FROM generate_series(0, $1 - 1) AS i`,
    [PENDING_SUBSCRIPTIONS],
  );
  await db.query('ANALYZE');
  return { orgId, sessionToken };
}
