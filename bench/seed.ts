import { createHash, createSecretKey, randomBytes, randomUUID } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { Client } from 'pg';
import { signDeviceToken } from '../src/device/tokens/device-token.jwt';
import { seedSubscriptions } from './seed-subscriptions';
import { BENCH_DEVICE_TOKEN_SECRET, BENCH_ORG_ID } from './service-env';

export const DEVICE_MODEL = 'hub-2';
export const DEVICE_PROVIDER = 'acme';

/**
 * How big the tables are. `small` is a young deployment, `large` a year of one.
 * Subscriptions are pending ones the webhook events pay (one per event, so each does the full work).
 * The small size has enough of them for every server's webhook windows on a quiet machine.
 */
export interface TableSize {
  name: 'small' | 'large';
  /** Devices in the measured org (the list, the device token). */
  orgDevices: number;
  /** Devices in all the other orgs together. */
  otherDevices: number;
  otherOrgs: number;
  sessions: number;
  eventIds: number;
  subscriptions: number;
}

export const SMALL: TableSize = {
  name: 'small',
  orgDevices: 10_000,
  otherDevices: 1_500,
  otherOrgs: 3,
  sessions: 10_000,
  eventIds: 10_000,
  subscriptions: 150_000,
};

export const LARGE: TableSize = {
  name: 'large',
  orgDevices: 100_000,
  otherDevices: 900_000,
  otherOrgs: 90,
  sessions: 1_000_000,
  eventIds: 1_000_000,
  subscriptions: 1_000_000,
};

/** `--quick`: the large tables at a tenth, so the growth path runs in a developer's check. */
export const QUICK_LARGE: TableSize = {
  ...LARGE,
  otherDevices: 100_000,
  otherOrgs: 10,
  sessions: 100_000,
  eventIds: 100_000,
  subscriptions: 100_000,
};

export interface Seeded {
  orgId: string;
  sessionToken: string;
  size: TableSize;
  /** A cursor 90 % down the measured org's list (a deep keyset page). */
  deepCursor: string;
  /** Bearer tokens of measured-org devices, as the service issues them: what heartbeats carry. */
  deviceTokens: string[];
}

/** Devices whose bearer tokens the heartbeat windows carry (few: the tokens travel in each window's input). */
const HEARTBEAT_DEVICES = 200;
/** Longer than any run: the bench mints the tokens once. */
const MINTED_TOKEN_SECONDS = 6 * 3600;

/**
 * Tokens for random devices of the measured org, signed as the service signs them
 * (src/device/tokens/device-token.jwt.ts) under the bench's DEVICE_TOKEN_SECRET: a heartbeat window costs
 * the service only heartbeats, not the token requests that would come before them.
 */
function mintDeviceTokens(orgId: string, orgDevices: number): string[] {
  const key = createSecretKey(Buffer.from(BENCH_DEVICE_TOKEN_SECRET, 'utf8'));
  const now = Math.floor(Date.now() / 1000);
  return Array.from({ length: HEARTBEAT_DEVICES }, () =>
    signDeviceToken(
      {
        deviceId: deviceId(Math.floor(Math.random() * orgDevices)),
        orgId,
        jkt: null,
        jti: randomUUID(),
        issuedAt: now,
        expiresAt: now + MINTED_TOKEN_SECONDS,
      },
      key,
    ),
  );
}

export function deviceId(n: number): string {
  return `bench-${String(n).padStart(6, '0')}`;
}

/** What both a `pg` client and PGlite answer. */
export interface Queryable {
  query<R>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
}

/**
 * Rows inserted directly (the schema comes from the service's own migrations, run at its first
 * boot), set-based (`generate_series`), never one statement per row.
 */
export async function seed(url: string, size: TableSize): Promise<Seeded> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await db.query('SET synchronous_commit = off');
    await db.query(`SET maintenance_work_mem = '256MB'`);
    return await seedRows(db, size);
  } finally {
    await db.end();
  }
}

/**
 * The same rows written straight into an embedded data directory, while no service has it open
 * (its first boot ran the migrations): the service's socket is for the service alone.
 */
export async function seedEmbedded(dataDir: string, size: TableSize): Promise<Seeded> {
  const db = await PGlite.create(dataDir);
  try {
    return await seedRows(db, size);
  } finally {
    await db.close();
  }
}

/**
 * Every seeded device reports (a fleet in service: the liveness pass's index holds them all), its
 * deadline a day ahead so no pass during the rounds finds one due; bench/liveness.ts moves 1 % of
 * them past it for its own measurement.
 */
const SEEN = `now() - interval '1 minute', now() + interval '1 day'`;

/** The organizations and their devices (the measured org's and the others', interleaved). */
async function seedDevices(db: Queryable, size: TableSize): Promise<string> {
  const org = await db.query<{ id: string }>(
    `INSERT INTO organizations (id, name, created_at) VALUES ($1, 'Bench org', now()) RETURNING id`,
    [BENCH_ORG_ID],
  );
  const orgId = org.rows[0].id;
  await db.query(
    `INSERT INTO devices (org_id, device_id, model, provider, status, created_at, updated_at,
       last_seen_at, offline_after)
     SELECT $1, 'bench-' || lpad(i::text, 6, '0'), $2, $3, 'active', now(), now(), ${SEEN}
     FROM generate_series(0, $4 - 1) AS i`,
    [orgId, DEVICE_MODEL, DEVICE_PROVIDER, size.orgDevices],
  );
  await db.query(
    `INSERT INTO organizations (name, created_at) SELECT 'Other org ' || o, now() FROM generate_series(1, $1) AS o`,
    [size.otherOrgs],
  );
  // Other orgs' device ids interleave with the measured org's in device_id order (bench-0000001
  // sorts between bench-000000 and bench-000001), as serial numbers from one maker would: a list
  // plan that walks device_id order and filters on org_id reads ten rows for each it returns.
  await db.query(
    `WITH o AS (SELECT array_agg(id ORDER BY name) AS ids FROM organizations WHERE name LIKE 'Other org %')
     INSERT INTO devices (org_id, device_id, model, provider, created_at, updated_at, last_seen_at, offline_after)
     SELECT o.ids[1 + i % array_length(o.ids, 1)], 'bench-' || lpad(i::text, 7, '0'), 'hub-1', 'acme', now(), now(), ${SEEN}
     FROM o, generate_series(0, $1 - 1) AS i`,
    [size.otherDevices],
  );
  return orgId;
}

async function seedRows(db: Queryable, size: TableSize): Promise<Seeded> {
  const orgId = await seedDevices(db, size);
  const user = await db.query<{ id: string }>(
    `INSERT INTO users (org_id, email, name, role, created_at, updated_at)
     VALUES ($1, 'bench@example.com', 'Bench', 'admin', now(), now())
     RETURNING id`,
    [orgId],
  );
  await seedSessions(db, user.rows[0].id, size);
  const sessionToken = randomBytes(32).toString('base64url');
  await db.query(
    `INSERT INTO sessions (token_hash, user_id, created_at, last_used_at, expires_at, idle_expires_at)
     VALUES ($1, $2, now(), now(), now() + interval '12 hours', now() + interval '30 minutes')`,
    [createHash('sha256').update(sessionToken).digest('hex'), user.rows[0].id],
  );
  await db.query(
    `INSERT INTO processed_webhook_events (id, type, outcome, received_at)
     SELECT 'evt_seed_' || i, 'checkout.session.completed', 'applied', now() - i * interval '1 second'
     FROM generate_series(1, $1) AS i`,
    [size.eventIds],
  );
  await seedSubscriptions(db, size);
  // VACUUM too, not only ANALYZE: otherwise autovacuum's insert-triggered pass over the new
  // million-row tables runs during the large-table rounds and competes for the CPU they measure.
  await db.query('VACUUM (ANALYZE)');
  // And write the seeded pages out now, or the checkpointer flushes them during the large-table
  // rounds. CHECKPOINT needs a superuser (or pg_checkpoint): where it is refused, the run goes on.
  await db.query('CHECKPOINT').catch(() => undefined);
  const deep = deviceId(Math.floor(size.orgDevices * 0.9));
  const deepCursor = Buffer.from(JSON.stringify({ v: 1, after: deep }), 'utf8').toString(
    'base64url',
  );
  const deviceTokens = mintDeviceTokens(orgId, size.orgDevices);
  return { orgId, sessionToken, size, deepCursor, deviceTokens };
}

/**
 * A year of sign-ins: sessions of a thousand other users, most of them long expired, spread over
 * the year, with random-looking token hashes (so the unique index is as a real one is).
 */
async function seedSessions(db: Queryable, benchUser: string, size: TableSize): Promise<void> {
  await db.query(
    `INSERT INTO users (org_id, email, name, role, created_at, updated_at)
     SELECT (SELECT id FROM organizations WHERE name LIKE 'Other org %' ORDER BY name LIMIT 1),
            'user' || u || '@example.com', 'User ' || u, 'member', now(), now()
     FROM generate_series(1, 1000) AS u`,
  );
  await db.query(
    `WITH u AS (SELECT array_agg(id) AS ids FROM users WHERE id <> $1)
     INSERT INTO sessions (token_hash, user_id, created_at, last_used_at, expires_at, idle_expires_at, revoked_at)
     SELECT md5('a' || i) || md5('b' || i), u.ids[1 + i % 1000],
            now() - (i % 365) * interval '1 day', now() - (i % 365) * interval '1 day',
            now() - (i % 365) * interval '1 day' + interval '12 hours',
            now() - (i % 365) * interval '1 day' + interval '30 minutes',
            CASE WHEN i % 3 = 0 THEN now() - (i % 365) * interval '1 day' END
     FROM u, generate_series(1, $2 - 1) AS i`,
    [benchUser, size.sessions],
  );
}
