/**
 * The yardstick's part of sealed personal data (contract section 9): the service's own crypto
 * functions (personal-data.crypto.ts) on the same statements, so a reference route does the
 * unwrap, open and seal work the service does for it.
 */
import type { Pool, PoolClient } from 'pg';
import { normalizeEmail } from '../src/common/validation/email';
import { keyedHash, open, seal, unwrap } from '../src/personal-data/personal-data.crypto';

/** An owner's data key, opened (the service's OpenKey). */
export interface OpenKey {
  owner: string;
  key: Buffer;
}

/** The personal fields that have a value, by the service's field names (PERSONAL_FIELDS). */
export type Personal = Record<string, string | null | undefined>;

const KEY_SQL = 'SELECT id, wrapped FROM data_keys WHERE id = $1 LIMIT 1';
const SEARCH_KEY_SQL = 'SELECT search_key FROM data_protection WHERE id = 1';
const AUDIT_KEY_SQL = 'SELECT audit_key FROM data_protection WHERE id = 1';

export function masterKey(): Buffer {
  const base64 = process.env.DATA_ENCRYPTION_KEY;
  if (!base64) throw new Error('DATA_ENCRYPTION_KEY is required');
  return Buffer.from(base64, 'base64');
}

/** The owner's data key, read and unwrapped as the service does on each request; null once erased. */
export async function keyOf(
  db: Pool | PoolClient,
  master: Buffer,
  owner: string,
): Promise<OpenKey | null> {
  const { rows } = await db.query<{ id: string; wrapped: string }>(KEY_SQL, [owner]);
  return rows[0] ? { owner, key: unwrap(master, rows[0].wrapped) } : null;
}

/** The record's sealed column opened ({} when it holds none). */
export function openPersonal(k: OpenKey | null, sealed: string | null): Personal {
  return k && sealed ? (JSON.parse(open(k.key, k.owner, sealed)) as Personal) : {};
}

/** The fields that have a value, sealed; null when none has (as the service stores them). */
export function sealPersonal(k: OpenKey, fields: Personal): string | null {
  const kept = Object.fromEntries(Object.entries(fields).filter(([, v]) => typeof v === 'string'));
  return Object.keys(kept).length === 0 ? null : seal(k.key, k.owner, JSON.stringify(kept));
}

/** An outgoing event's body as the outbox builds it, sealed under the record's key. */
export function sealEvent(k: OpenKey, type: string, data: object, now: Date): string {
  return seal(k.key, k.owner, JSON.stringify({ type, timestamp: now.toISOString(), data }));
}

/**
 * The keyed email hash under the database's search key, read and unwrapped once when the app
 * starts, as the service's keyring does at boot (not on a request's first use: a webhook holding
 * every pooled client would wait for a client to read it).
 */
export function emailHasher(pool: Pool, master: Buffer) {
  const searchKey = pool
    .query<{ search_key: string }>(SEARCH_KEY_SQL)
    .then(({ rows }) => unwrap(master, rows[0].search_key));
  // Awaited on first use, which reports a failure; no unhandled rejection before then.
  searchKey.catch(() => undefined);
  return async (email: string | null | undefined): Promise<string | null> =>
    email ? keyedHash(await searchKey, normalizeEmail(email)) : null;
}

/**
 * The audit chain's keyed link under the database's audit key, read and unwrapped once when the
 * app starts, as the service's keyring does at boot (DataKeyring.auditMac).
 */
export function auditMacOf(pool: Pool, master: Buffer): () => Promise<(text: string) => string> {
  const auditKey = pool
    .query<{ audit_key: string }>(AUDIT_KEY_SQL)
    .then(({ rows }) => unwrap(master, rows[0].audit_key));
  auditKey.catch(() => undefined);
  return async () => {
    const key = await auditKey;
    return (text) => keyedHash(key, text);
  };
}

/** A record as integrators and operators get it (the service's SubscriptionRecordDto.from). */
export function recordView(
  s: {
    id: string;
    status: string;
    created_at: Date;
    paid_at: Date | null;
    canceled_at: Date | null;
    coupon: string | null;
    checkout_session_id: string | null;
    processor_subscription_id: string | null;
    processor_customer_id: string | null;
    erased_at: Date | null;
  },
  p: Personal,
) {
  return {
    id: s.id,
    status: s.status,
    created_at: s.created_at.toISOString(),
    paid_at: s.paid_at?.toISOString() ?? null,
    canceled_at: s.canceled_at?.toISOString() ?? null,
    coupon: s.coupon,
    customer: {
      email: p.customerEmail ?? p.email ?? null,
      name: p.customerName ?? p.name ?? null,
      phone: p.customerPhone ?? null,
    },
    recipient: {
      name: p.recipientName ?? null,
      living_situation: p.livingSituation ?? null,
      primary_concern: p.primaryConcern ?? null,
      zip: p.recipientZip ?? null,
    },
    shipping: { name: p.shippingName ?? null, address: p.shippingAddress ?? null },
    processor: {
      checkout_session_id: s.checkout_session_id,
      subscription_id: s.processor_subscription_id,
      customer_id: s.processor_customer_id,
    },
    erased_at: s.erased_at?.toISOString() ?? null,
  };
}

export type RecordRow = Parameters<typeof recordView>[0] & { personal: string | null };
