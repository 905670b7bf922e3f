/** What integrators hear of (docs/outgoing-webhooks.md). */
export const SUBSCRIPTION_EVENT_TYPES = [
  'subscription.created',
  'subscription.paid',
  'subscription.past_due',
  'subscription.payment_failed',
  'subscription.expired',
  'subscription.canceled',
  /** `{"id","erased_at"}` only: delete your copies of the record's personal data. */
  'subscription.erased',
  /** Contract section 10: a device assigned (or replaced), then its first token after that. */
  'subscription.shipped',
  'subscription.activated',
] as const;
export const DEVICE_EVENT_TYPES = [
  'device.registered',
  'device.deactivated',
  'device.key_rotated',
  /** Liveness (contract section 10), to the device organization's endpoints. */
  'device.offline',
  'device.online',
  'device.battery_low',
] as const;
/** Device events only the fulfilment organization hears of (contract section 10). */
export const FULFILMENT_DEVICE_EVENT_TYPES = ['device.return_requested'] as const;
export const TEST_EVENT_TYPE = 'webhook.test';

export type SubscriptionEventType = (typeof SUBSCRIPTION_EVENT_TYPES)[number];
export type DeviceEventType =
  (typeof DEVICE_EVENT_TYPES)[number] | (typeof FULFILMENT_DEVICE_EVENT_TYPES)[number];
export type OutgoingEventType = SubscriptionEventType | DeviceEventType | typeof TEST_EVENT_TYPE;

/** Every type an endpoint may subscribe to. */
export const SUBSCRIBABLE_TYPES: readonly string[] = [
  ...SUBSCRIPTION_EVENT_TYPES,
  ...DEVICE_EVENT_TYPES,
  ...FULFILMENT_DEVICE_EVENT_TYPES,
];

/** How a delivery whose body can no longer be opened ends: its owner was erased (contract section 9). */
export const ERASED_ERROR = 'erased';

/**
 * A failed delivery's `last_error`: a short reason of the service's own, or `http_<status>` for an
 * answer outside 2xx and 3xx; never what the receiver answered, which may echo the event's
 * personal data (contract section 9).
 */
export const DELIVERY_FAILURE_REASONS = [
  'timeout',
  'connection_refused',
  'connection_reset',
  'unreachable',
  'tls',
  'connection_failed',
  'name_not_resolved',
  'refused_address',
  'redirect_not_followed',
  'aborted',
  'not_sent',
  'endpoint_disabled',
  ERASED_ERROR,
] as const;
export type DeliveryFailureReason = (typeof DELIVERY_FAILURE_REASONS)[number] | `http_${number}`;

export const DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The types an organization's endpoints may receive: subscriptions only for the fulfilment org. */
export function typesFor(orgId: string, fulfilmentOrgId: string | undefined): string[] {
  return orgId === fulfilmentOrgId ? [...SUBSCRIBABLE_TYPES] : [...DEVICE_EVENT_TYPES];
}

/**
 * The one rule of what a disabled endpoint is sent: its test calls, nothing else (contract
 * section 8). The claim and the failing of pending deliveries say the same in SQL
 * (webhook-delivery.store.ts: CANDIDATES_SQL, FAIL_PENDING_SQL).
 */
export function sendable(endpointEnabled: boolean, eventType: string): boolean {
  return endpointEnabled || eventType === TEST_EVENT_TYPE;
}
