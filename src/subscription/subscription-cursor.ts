import { isUUID } from 'class-validator';
import { decodeKeysetCursor, encodeKeysetCursor } from '../common/pagination/keyset-cursor';

/** Where a newest-first page ended: the last record's creation, to the microsecond, and its id. */
export interface SubscriptionCursor {
  at: string;
  id: string;
}

/** PostgreSQL keeps microseconds, a JS Date only milliseconds: the time travels as text. */
const MICROSECOND_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export function encodeSubscriptionCursor(cursor: SubscriptionCursor): string {
  return encodeKeysetCursor({ at: cursor.at, id: cursor.id });
}

/** The position to continue after, or undefined when the cursor is not one of ours. */
export function decodeSubscriptionCursor(cursor: string): SubscriptionCursor | undefined {
  return decodeKeysetCursor(cursor, ({ at, id }) =>
    typeof at === 'string' &&
    MICROSECOND_TIME.test(at) &&
    !Number.isNaN(Date.parse(at)) &&
    typeof id === 'string' &&
    isUUID(id)
      ? { at, id }
      : undefined,
  );
}
