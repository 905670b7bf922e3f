import { isUUID } from 'class-validator';
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

const MICROSECOND_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

export const SUBSCRIPTION_ORDER: KeysetOrder<SubscriptionRow, SubscriptionPosition> = {
  positionOf: (row) => ({ at: row.at, id: row.sub.id }),
  read: ({ at, id }) =>
    typeof at === 'string' &&
    MICROSECOND_TIME.test(at) &&
    !Number.isNaN(Date.parse(at)) &&
    typeof id === 'string' &&
    isUUID(id)
      ? { at, id }
      : undefined,
};
