import { LIVING_SITUATIONS, PRIMARY_CONCERNS } from '../../../src/checkout/care-options';

/** Words for the API's values: what people read, in tables and filters. */
export const HEALTH_LABELS = {
  online: 'Online',
  offline: 'Offline',
  never_seen: 'Never seen',
} as const;

export const SUBSCRIPTION_STATUS_LABELS = {
  pending: 'Pending',
  paid: 'Paid',
  past_due: 'Past due',
  canceled: 'Canceled',
  expired: 'Expired',
  payment_failed: 'Payment failed',
} as const;

export const ROLE_LABELS = { admin: 'Admin', member: 'Member' } as const;

/** A dropdown value of the hosted checkout by the label the family chose it by. */
export function careLabel(value: string | null): string {
  if (value === null) return '—';
  const option = [...LIVING_SITUATIONS, ...PRIMARY_CONCERNS].find((o) => o.value === value);
  return option?.label ?? value;
}

export function label<K extends string>(labels: Record<K, string>, value: K): string {
  return labels[value] ?? value;
}
