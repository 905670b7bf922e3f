import { createHash } from 'node:crypto';
import type { AuditDetails } from './audit-event.types';

/** The `prev_hash` of the first event ever written. */
export const GENESIS_HASH = '0'.repeat(64);

/** The stored fields an event's hash covers, as the row holds them (bigints as strings). */
export interface ChainedFields {
  seq: string;
  /** UTC to the microsecond, as PostgreSQL keeps it (`microsecondTime`). */
  occurredAt: string;
  action: string;
  actorType: string;
  actorId: string | null;
  actorOrgId: string | null;
  subjectType: string | null;
  subjectId: string | null;
  subjectOrgId: string | null;
  ip: string | null;
  requestId: string | null;
  details: Record<string, unknown>;
  prevHash: string;
}

/** The one INSERT of an event: the trail writes it, the bench's reference app mirrors it. */
export const INSERT_EVENT_SQL = `INSERT INTO audit_events (seq, occurred_at, action, actor_type,
  actor_id, actor_org_id, subject_type, subject_id, subject_org_id, ip, request_id, details,
  prev_hash, hash) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`;

/** INSERT_EVENT_SQL's parameters: the fields, and their link (`keyedLink`). */
export function insertParams(f: ChainedFields, hash: string): unknown[] {
  return [
    f.seq,
    f.occurredAt,
    f.action,
    f.actorType,
    f.actorId,
    f.actorOrgId,
    f.subjectType,
    f.subjectId,
    f.subjectOrgId,
    f.ip,
    f.requestId,
    JSON.stringify(f.details),
    f.prevHash,
    hash,
  ];
}

/** JSON with every object's keys sorted, so jsonb's own key order does not change the hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
    return `{${entries.join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The canonical form: every stored field but `id` and `hash`, in a fixed order, as one JSON
 * array. The time to the microsecond, so a change below the millisecond shows too. `v1` is the
 * plain SHA-256 links of a chain written before it was keyed, `v2` the keyed ones.
 */
export function canonicalForm(e: ChainedFields, version: 'v1' | 'v2' = 'v1'): string {
  return canonicalJson([
    version,
    e.seq,
    e.occurredAt,
    e.action,
    e.actorType,
    e.actorId,
    e.actorOrgId,
    e.subjectType,
    e.subjectId,
    e.subjectOrgId,
    e.ip,
    e.requestId,
    e.details,
    e.prevHash,
  ]);
}

/** A Clock time as the chain writes it: the ISO form with PostgreSQL's microseconds. */
export function microsecondTime(at: Date): string {
  return `${at.toISOString().slice(0, 23)}000Z`;
}

/** The SQL that reads a stored time back in that form. */
export const MICROSECOND_TIME_SQL = `to_char(occurred_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** The plain link (`v1`): what events before the chain was keyed carry. */
/** The chained fields as `SELECT` reads them into a `ChainedRow` (audit-chain-walker.ts). */
export const CHAINED_COLUMNS_SQL = `id, seq, ${MICROSECOND_TIME_SQL} AS "occurredAt", action,
  actor_type AS "actorType", actor_id AS "actorId", actor_org_id AS "actorOrgId",
  subject_type AS "subjectType", subject_id AS "subjectId", subject_org_id AS "subjectOrgId",
  ip, request_id AS "requestId", details, prev_hash AS "prevHash", hash`;

export function eventHash(e: ChainedFields): string {
  return createHash('sha256').update(canonicalForm(e), 'utf8').digest('hex');
}

/** HMAC-SHA-256 (hex) under the audit key; the key itself stays with its holder (DataKeyring). */
export type AuditMac = (text: string) => string;

/** The keyed link (`v2`): what every event after the chain's keyed start carries. */
export function keyedLink(e: ChainedFields, mac: AuditMac): string {
  return mac(canonicalForm(e, 'v2'));
}

/** A recorded start of the chain (`audit_chain_starts`), as its MAC covers it. */
export interface StartFields {
  kind: 'keyed' | 'pruned';
  seq: string;
  hash: string;
}

/** A start's MAC: who does not hold the audit key cannot record one that verifies. */
export function startMac(s: StartFields, mac: AuditMac): string {
  return mac(canonicalJson(['audit chain start', s.kind, s.seq, s.hash]));
}

/** A details key: a short snake_case name. */
const DETAIL_KEY = /^[a-z][a-z0-9_]{0,63}$/;
/**
 * A details string: an id, a count, a code or a hash. No spaces and no `@`, so a name, an address
 * or an email cannot slip in by mistake (contract section 9: never personal data in `details`).
 */
const DETAIL_TEXT = /^[A-Za-z0-9_.:/+=-]{0,200}$/;
const MAX_LIST = 500;

/** Throws (a programming error, not a client's) on details that are not ids, counts or codes. */
export function assertSafeDetails(details: AuditDetails): void {
  for (const [key, value] of Object.entries(details)) {
    if (!DETAIL_KEY.test(key)) throw new Error(`audit details: bad key ${JSON.stringify(key)}`);
    if (!isSafeValue(value)) throw new Error(`audit details: ${key} is not an id, count or code`);
  }
}

function isSafeValue(value: unknown): boolean {
  if (value === null || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value === 'string') return DETAIL_TEXT.test(value);
  return (
    Array.isArray(value) &&
    value.length <= MAX_LIST &&
    value.every((v) => typeof v === 'string' && DETAIL_TEXT.test(v))
  );
}

/** An action name: dotted snake_case words, e.g. `user.role_changed`. */
export const ACTION_NAME = /^[a-z][a-z_]*(\.[a-z][a-z_]*)+$/;
