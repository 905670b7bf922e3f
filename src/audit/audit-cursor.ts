import { CURSOR_FIELD, cursorReader } from '../common/pagination/keyset-cursor';
import type { KeysetOrder } from '../common/pagination/keyset-page';

/** Where a newest-first page ended: the last event's time, to the microsecond, and its id. */
export interface AuditPosition extends Record<string, string> {
  at: string;
  id: string;
}

/** A bigint id PostgreSQL takes as it is: digits, no sign, at most 18 of them. */
const isEventId = (value: unknown): value is string =>
  typeof value === 'string' && /^[1-9]\d{0,17}$/.test(value);

export const AUDIT_ORDER: KeysetOrder<{ id: string; at: string }, AuditPosition> = {
  positionOf: (row) => ({ at: row.at, id: row.id }),
  read: cursorReader({ at: CURSOR_FIELD.time, id: isEventId }),
};
