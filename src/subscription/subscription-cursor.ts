import { CURSOR_FIELD, cursorReader } from '../common/pagination/keyset-cursor';
import type { KeysetOrder } from '../common/pagination/keyset-page';
import type { Subscription } from './subscription.entity';

/** Where a newest-first page ended: the last record's creation, to the microsecond, and its id. */
export interface SubscriptionPosition extends Record<string, string> {
  at: string;
  id: string;
}

/** A record with its creation time as PostgreSQL keeps it (microseconds; a Date keeps milliseconds). */
export interface SubscriptionRow {
  sub: Subscription;
  at: string;
}

export const SUBSCRIPTION_ORDER: KeysetOrder<SubscriptionRow, SubscriptionPosition> = {
  positionOf: (row) => ({ at: row.at, id: row.sub.id }),
  read: cursorReader({ at: CURSOR_FIELD.time, id: CURSOR_FIELD.uuid }),
};
