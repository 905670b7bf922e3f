import type { EntityMetadata } from 'typeorm';
import {
  outboxStatement,
  OutboxStatement,
} from '../../outgoing-webhook/outbox/event-outbox.service';
import type { EventFields } from './subscription-events';
import { PERSONAL_FIELDS } from '../subscription.entity';
import type { PersonalField, Subscription } from '../subscription.entity';

/**
 * What the checkout request, the checkout's failure and the shipping (PUT …/device) wrote: no
 * processor event fills them.
 */
const NOT_FROM_EVENTS: readonly PersonalField[] = [
  'name',
  'email',
  'lastProcessorError',
  'trackingNumber',
];
type FillablePersonalField = Exclude<
  PersonalField,
  'name' | 'email' | 'lastProcessorError' | 'trackingNumber'
>;

/** The personal fields an event fills on a record, only where the record has none yet (sealed). */
export const PERSONAL_FILLABLE: readonly (FillablePersonalField & keyof EventFields)[] =
  PERSONAL_FIELDS.filter((f): f is FillablePersonalField => !NOT_FROM_EVENTS.includes(f));

/** The processor's ids an event fills, likewise (not personal: stored as they are). */
export const ID_FILLABLE = [
  'processorSubscriptionId',
  'processorCustomerId',
] as const satisfies readonly (keyof EventFields & keyof Subscription)[];

/**
 * Every column an event's patch may set: the sealed personal fields and the email's hash, the
 * ids, the session id, the status and its dates, the customer's deletion still to do.
 */
const PATCHABLE = [
  'personal',
  'customerEmailHash',
  ...ID_FILLABLE,
  'checkoutSessionId',
  'status',
  'statusChangedAt',
  'paidAt',
  'canceledAt',
  'expiredAt',
  // Set (never cleared) when a completion brings a customer to an erased record.
  'processorErasurePending',
] as const satisfies readonly (keyof Subscription)[];

/**
 * What a patch may carry: those columns, never null (the statement keeps the old value for a
 * null), so a new key or a clearing patch fails the build instead of being dropped.
 */
export type SubscriptionPatch = {
  [K in (typeof PATCHABLE)[number]]?: NonNullable<Subscription[K]>;
};

export interface PatchStatements {
  /** The record's patch alone. */
  update: string;
  /** The patch and the event that reports it (contract section 8), one round trip. */
  withEvent: OutboxStatement;
}

/**
 * One constant UPDATE for every patch, built once from the entity's metadata: a column the patch
 * leaves out gets NULL and keeps its value (COALESCE), since a patch never clears a column. The
 * statement's text stays the same whichever fields an event fills.
 */
export function patchStatements(metadata: EntityMetadata): PatchStatements {
  const sets = PATCHABLE.map((p, i) => {
    const column = `"${metadata.findColumnWithPropertyName(p)!.databaseName}"`;
    return `${column} = COALESCE($${i + 1}, ${column})`;
  });
  const n = PATCHABLE.length;
  const update = `UPDATE subscriptions SET ${sets.join(', ')}, "updated_at" = $${n + 1} WHERE id = $${n + 2}`;
  return { update, withEvent: outboxStatement(`${update} RETURNING 1`, n + 2) };
}

/** The parameters of `patchStatements`' statements for one record's patch. */
export function patchParams(id: string, patch: SubscriptionPatch, now: Date): unknown[] {
  return [...PATCHABLE.map((p) => patch[p] ?? null), now, id];
}
