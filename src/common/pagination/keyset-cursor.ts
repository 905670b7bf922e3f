import { parseUuid } from '../../config/uuid';
import { unstorableReason } from '../validation/storable-text';

/**
 * A keyset list's cursor: where a page ended, as versioned JSON in base64url, so clients treat it
 * as opaque (the order may gain columns later without breaking their code). A cursor is client
 * input: every field is read back by a strict check (`CURSOR_FIELD`), so that what the list's SQL
 * receives is a value PostgreSQL takes, never one it refuses with a 500.
 */
export function encodeKeysetCursor(position: Record<string, string>): string {
  return Buffer.from(JSON.stringify({ v: 1, ...position }), 'utf8').toString('base64url');
}

/** The longest cursor a list takes (the query DTO's rule too): base64url of a small JSON object. */
export const CURSOR_MAX_LENGTH = 400;

/** The position's fields, or undefined when the cursor is not one of ours; `read` checks them. */
export function decodeKeysetCursor<T>(
  cursor: string,
  read: (fields: Record<string, unknown>) => T | undefined,
): T | undefined {
  if (cursor.length > CURSOR_MAX_LENGTH || !/^[A-Za-z0-9_-]+$/.test(cursor)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
    const fields = parsed as Record<string, unknown>;
    return fields.v === 1 ? read(fields) : undefined;
  } catch {
    return undefined;
  }
}

/** A check of one cursor field: true when the list's SQL can take it as it is. */
export type CursorFieldCheck = (value: unknown) => value is string;

/**
 * A row's time to the microsecond as the lists write it (`to_char(created_at AT TIME ZONE 'UTC',
 * 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`). `Date.parse` takes far more (`"2026"`, `"1"`, Feb 30, year 0)
 * than PostgreSQL does: the exact shape, a millisecond part that round-trips through a Date
 * unchanged (no Feb 30, no 24:00) and years 1 to 9999 (PostgreSQL has no year 0).
 */
const MICROSECOND_TIME = /^(\d{4})-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}\d{3}Z$/;

function isCursorTime(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = MICROSECOND_TIME.exec(value);
  if (!match || Number(match[1]) < 1) return false;
  const milliseconds = `${value.slice(0, 23)}Z`;
  const time = new Date(milliseconds);
  return !Number.isNaN(time.getTime()) && time.toISOString() === milliseconds;
}

/** The one reader of every list's cursor fields, by kind. */
export const CURSOR_FIELD = {
  time: isCursorTime,
  uuid: (value: unknown): value is string => parseUuid(value) !== undefined,
  /** Text PostgreSQL can compare: no NUL, no lone surrogate (storable-text.ts). */
  text: (value: unknown): value is string =>
    typeof value === 'string' && unstorableReason(value) === undefined,
} satisfies Record<string, CursorFieldCheck>;

/**
 * A list's `read`: the position's keys, each with its check; undefined (the 400) when one is
 * missing or fails. Only the listed keys are kept.
 */
export function cursorReader<K extends string>(
  checks: Record<K, CursorFieldCheck>,
): (fields: Record<string, unknown>) => Record<K, string> | undefined {
  const keys = Object.keys(checks) as K[];
  return (fields) => {
    const position = {} as Record<K, string>;
    for (const key of keys) {
      const value = fields[key];
      if (!checks[key](value)) return undefined;
      position[key] = value;
    }
    return position;
  };
}
