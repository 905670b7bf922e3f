import type { EntityMetadata } from 'typeorm';
import { outboxStatement, OutboxStatement } from '../outgoing-webhook/outbox/event-outbox.service';
import type { EventFields } from './subscription-events';
import type { Subscription } from './subscription.entity';

/** The fields an event fills on a record, only where the record has none yet. */
export const FILLABLE: readonly (keyof EventFields)[] = [
  'customerEmail',
  'customerName',
  'customerPhone',
  'recipientName',
  'livingSituation',
  'primaryConcern',
  'shippingAddress',
  'recipientZip',
  'shippingName',
  'processorSubscriptionId',
  'processorCustomerId',
];

/** Every column an event's patch may set: the fills, the session id, the status and its dates. */
const PATCHABLE = [
  ...FILLABLE,
  'checkoutSessionId',
  'status',
  'paidAt',
  'canceledAt',
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
