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

/** INSERT_EVENT_SQL's parameters: the fields, and their hash. */
export function insertParams(f: ChainedFields): unknown[] {
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
    eventHash(f),
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
 * array. The time to the microsecond, so a change below the millisecond shows too.
 */
export function canonicalForm(e: ChainedFields): string {
  return canonicalJson([
    'v1',
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

export function eventHash(e: ChainedFields): string {
  return createHash('sha256').update(canonicalForm(e), 'utf8').digest('hex');
}

/** A chained row as `audit:verify` reads it. */
export interface ChainedRow extends ChainedFields {
  id: string;
  hash: string;
}

/** Why a row does not match: its own hash, or its link to the row before. */
export interface ChainBreak {
  id: string;
  seq: string;
  reason: 'hash' | 'prev_hash' | 'seq';
}

/**
 * Walks the chain in seq order, one row at a time (the caller streams them in batches). The first
 * row's `prev_hash` is taken as given (the start may have been pruned by the retention).
 */
export class ChainWalker {
  private last?: { seq: bigint; hash: string };
  count = 0;

  /** The break this row makes, or undefined when it follows the one before. */
  next(row: ChainedRow): ChainBreak | undefined {
    const at = { id: row.id, seq: row.seq };
    if (this.last && BigInt(row.seq) !== this.last.seq + 1n) return { ...at, reason: 'seq' };
    if (this.last && row.prevHash !== this.last.hash) return { ...at, reason: 'prev_hash' };
    if (eventHash(row) !== row.hash) return { ...at, reason: 'hash' };
    this.last = { seq: BigInt(row.seq), hash: row.hash };
    this.count += 1;
    return undefined;
  }
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
