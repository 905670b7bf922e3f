import { LIVE_STATUSES_SQL } from './subscription.entity';

/**
 * A record waiting for a device (contract sections 10 and 11), over the alias `s`: live (paid or
 * past_due, what shipping accepts), no device assigned yet, its personal data not erased (nowhere
 * to ship to).
 */
export const awaitingDeviceSql = (s: string): string =>
  `${s}.status IN (${LIVE_STATUSES_SQL}) AND ${s}.device_id IS NULL AND ${s}.erased_at IS NULL`;
