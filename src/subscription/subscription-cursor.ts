import { isUUID } from 'class-validator';

/** Where a newest-first page ended: the last record's creation, to the microsecond, and its id. */
export interface SubscriptionCursor {
  at: string;
  id: string;
}

/** PostgreSQL keeps microseconds, a JS Date only milliseconds: the time travels as text. */
const MICROSECOND_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeSubscriptionCursor(cursor: SubscriptionCursor): string {
  return Buffer.from(JSON.stringify({ v: 1, ...cursor }), 'utf8').toString('base64url');
}

/** The position to continue after, or undefined when the cursor is not one of ours. */
export function decodeSubscriptionCursor(cursor: string): SubscriptionCursor | undefined {
  if (!/^[A-Za-z0-9_-]{1,400}$/.test(cursor)) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { v, at, id } = parsed as { v?: unknown; at?: unknown; id?: unknown };
    const valid =
      v === 1 && typeof at === 'string' && MICROSECOND_TIME.test(at) && typeof id === 'string';
    return valid && isUUID(id) && !Number.isNaN(Date.parse(at)) ? { at, id } : undefined;
  } catch {
    return undefined;
  }
}
