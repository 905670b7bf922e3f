import type { EntityManager } from 'typeorm';
import { ADVISORY_LOCK } from '../../database/advisory-locks';
import { statementRows } from '../../database/statement-rows';
import type { NewOutgoingEvent } from '../../outgoing-webhook/outbox/event-outbox.service';
import { LIVE_STATUSES_SQL } from '../subscription.entity';

/**
 * The live record holding the device and not activated yet: a constant statement on the partial
 * unique index UQ_subscriptions_live_device, read on every token (decision 0012).
 */
export const AWAITING_ACTIVATION_SQL = `SELECT id FROM subscriptions
  WHERE device_id = $1 AND status IN (${LIVE_STATUSES_SQL}) AND device_activated_at IS NULL LIMIT 1`;

const LOCK_DEVICE_SQL = 'SELECT pg_advisory_xact_lock($1, hashtext($2)) AS locked';
const LIVE_HOLDER_SQL = `SELECT id FROM subscriptions
  WHERE device_id = $1 AND status IN (${LIVE_STATUSES_SQL}) AND id <> $2 LIMIT 1`;

/**
 * Who holds a device (contract section 10): at most one live record, kept by the partial unique
 * index UQ_subscriptions_live_device. Takes the device's hand-over lock (until the transaction
 * ends), then answers whether a live record other than `subscriptionId` holds it: under that one
 * advisory lock per device the answer stays true until the caller's change commits (the index
 * stays the last word against anything else).
 */
export async function heldByAnother(
  manager: EntityManager,
  deviceId: string,
  subscriptionId: string,
): Promise<boolean> {
  await statementRows(manager, LOCK_DEVICE_SQL, [ADVISORY_LOCK.subscriptionDevice, deviceId]);
  const rows = await statementRows(manager, LIVE_HOLDER_SQL, [deviceId, subscriptionId]);
  return rows.length > 0;
}

/** The fulfilment team is asked for a unit back: the record ended, or a replacement was shipped. */
export function returnRequested(
  fulfilmentOrgId: string,
  deviceId: string,
  subscriptionId: string,
): NewOutgoingEvent {
  return {
    type: 'device.return_requested',
    orgId: fulfilmentOrgId,
    data: { device_id: deviceId, subscription_id: subscriptionId },
  };
}
