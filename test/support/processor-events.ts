import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import { completedSession } from '../../dev-processor/completed-session';
import { eventEnvelope } from '../../dev-processor/processor-events';

export const WEBHOOK_SECRET = 'whsec_test_current_0123456789abcdef';
export const OLD_WEBHOOK_SECRET = 'whsec_test_previous_0123456789abcdef';

const evtId = () => `evt_${randomBytes(12).toString('hex')}`;

/**
 * A `checkout.session.completed` event shaped as the processor sends it for the API version the
 * SDK pins: shipping under `collected_information`, custom fields with their stored values.
 */
export function checkoutCompletedEvent(
  subscriptionId: string,
  session: Record<string, unknown> = {},
): Record<string, unknown> {
  const sessionId = `cs_test_${randomBytes(12).toString('hex')}`;
  return eventEnvelope('checkout.session.completed', {
    id: sessionId,
    ...completedSession(subscriptionId),
    ...session,
  });
}

/** The API versions whose payload shapes the service reads: the pinned one, and an older one. */
export type ApiShape = 'current' | 'older';
const OLDER_API_VERSION = '2024-06-20';

export interface EnvelopeOptions {
  /** The event's `created`, in seconds; now by default. */
  created?: number;
  id?: string;
  shape?: ApiShape;
}

const envelope = (type: string, object: Record<string, unknown>, o: EnvelopeOptions = {}) =>
  eventEnvelope(type, object, {
    id: o.id,
    created: o.created,
    apiVersion: o.shape === 'older' ? OLDER_API_VERSION : undefined,
  });

export const SESSION_EVENT_TYPES = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
] as const;

/**
 * A checkout session event of any type, the session shaped as `checkoutCompletedEvent` makes it;
 * the older shape puts shipping at the top (`shipping_details`) with no `collected_information`.
 */
export function sessionEvent(
  type: (typeof SESSION_EVENT_TYPES)[number],
  subscriptionId: string,
  session: Record<string, unknown> = {},
  o: EnvelopeOptions = {},
): Record<string, unknown> {
  const base = (checkoutCompletedEvent(subscriptionId).data as { object: Record<string, unknown> })
    .object;
  const { collected_information: collected, ...rest } = base;
  const older = {
    ...rest,
    shipping_details: (collected as { shipping_details: unknown }).shipping_details,
  };
  const byType: Record<string, Record<string, unknown>> = {
    'checkout.session.completed': {},
    'checkout.session.async_payment_succeeded': { payment_status: 'paid' },
    'checkout.session.async_payment_failed': { payment_status: 'unpaid' },
    'checkout.session.expired': {
      status: 'expired',
      payment_status: 'unpaid',
      customer: null,
      subscription: null,
      customer_details: null,
      collected_information: null,
      shipping_details: null,
      custom_fields: [],
    },
  };
  const object = { ...(o.shape === 'older' ? older : base), ...byType[type], ...session };
  return envelope(type, object, o);
}

export interface ProcessorSubscriptionRef {
  /** Our id in the processor subscription's metadata; omitted when null. */
  subscriptionId: string | null;
  processorSubscriptionId: string;
  product?: string;
  customer?: string;
}

const metadataOf = (r: ProcessorSubscriptionRef) =>
  r.subscriptionId === null
    ? {}
    : { product: r.product ?? 'lease', subscription_id: r.subscriptionId };

/**
 * `invoice.paid` / `invoice.payment_failed`: the subscription's metadata and id under
 * `parent.subscription_details` (current API) or `subscription_details` and `subscription` at the
 * top (older versions).
 */
export function invoiceEvent(
  type: 'invoice.paid' | 'invoice.payment_failed',
  ref: ProcessorSubscriptionRef,
  o: EnvelopeOptions = {},
): Record<string, unknown> {
  const paid = type === 'invoice.paid';
  const common = {
    id: `in_test_${randomBytes(8).toString('hex')}`,
    object: 'invoice',
    customer: ref.customer ?? 'cus_test_123',
    billing_reason: 'subscription_cycle',
    status: paid ? 'paid' : 'open',
    amount_due: 5000,
    amount_paid: paid ? 5000 : 0,
    currency: 'usd',
    attempt_count: paid ? 1 : 2,
  };
  const object =
    o.shape === 'older'
      ? {
          ...common,
          subscription: ref.processorSubscriptionId,
          subscription_details: { metadata: metadataOf(ref) },
        }
      : {
          ...common,
          parent: {
            type: 'subscription_details',
            quote_details: null,
            subscription_details: {
              metadata: metadataOf(ref),
              subscription: ref.processorSubscriptionId,
            },
          },
        };
  return envelope(type, object, o);
}

/** `customer.subscription.updated` / `.deleted`: the processor's subscription object itself. */
export function subscriptionEvent(
  type: 'customer.subscription.updated' | 'customer.subscription.deleted',
  ref: ProcessorSubscriptionRef & { status: string },
  o: EnvelopeOptions = {},
): Record<string, unknown> {
  const now = o.created ?? Math.floor(Date.now() / 1000);
  const ended = type === 'customer.subscription.deleted';
  return envelope(
    type,
    {
      id: ref.processorSubscriptionId,
      object: 'subscription',
      status: ref.status,
      customer: ref.customer ?? 'cus_test_123',
      metadata: metadataOf(ref),
      cancel_at_period_end: false,
      canceled_at: ended ? now : null,
      ended_at: ended ? now : null,
    },
    o,
  );
}

/** Any other event type, which the service acknowledges and ignores. */
export function otherEvent(type: string): Record<string, unknown> {
  return {
    id: evtId(),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    type,
    data: { object: { id: 'in_test_1', object: 'invoice' } },
  };
}

/** The `Stripe-Signature` header the processor would send, made by the SDK's own test helper. */
export function sign(payload: string, secret = WEBHOOK_SECRET, timestamp?: number): string {
  return Stripe.webhooks.generateTestHeaderString({ payload, secret, timestamp });
}
