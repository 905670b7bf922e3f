import type Stripe from 'stripe';
import { paidDetails, PaidDetails, text } from './checkout-session.details';
import type { Effect } from './subscription-status.machine';

/** The fields an event may fill on a record (only where the record has none yet). */
export type EventFields = Partial<
  PaidDetails & { shippingName: string; checkoutSessionId: string }
>;

/** Where an event says which record it is about: our id first, then the processor's subscription. */
export interface EventRef {
  subscriptionId: string | null;
  processorSubscriptionId: string | null;
  /** `metadata.product` when the event carries our metadata; only `lease` is ours. */
  product: string | null;
}

/** One processor event read into what the lifecycle needs, whatever the API version's shape. */
export interface ReadEvent {
  ref: EventRef;
  effect: Effect;
  fields: EventFields;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : {};
/** An expandable field: the id string, or the object with an `id`. */
const idOf = (v: unknown): string | null => text(typeof v === 'string' ? v : obj(v).id, 255);

function refFrom(metadata: unknown, processorSubscription: unknown): EventRef {
  const m = obj(metadata);
  return {
    subscriptionId: text(m.subscription_id, 64),
    processorSubscriptionId: idOf(processorSubscription),
    product: text(m.product, 64),
  };
}

const SETTLED = new Set(['paid', 'no_payment_required']);

/** Checkout sessions: our metadata, the customer's details, shipping in either shape. */
function session(effect: (s: Json) => Effect) {
  return (object: Json): ReadEvent => {
    const details = paidDetails(object as unknown as Stripe.Checkout.Session);
    const ref = refFrom(object.metadata, object.subscription);
    ref.subscriptionId ??= text(object.client_reference_id, 64);
    const fields: EventFields = { ...details, shippingName: shippingName(object) ?? undefined };
    const sessionId = text(object.id, 255);
    if (sessionId) fields.checkoutSessionId = sessionId;
    return { ref, effect: effect(object), fields };
  };
}

function shippingName(s: Json): string | null {
  const current = obj(obj(s.collected_information).shipping_details).name;
  return text(current ?? obj(s.shipping_details).name ?? obj(s.shipping).name, 255);
}

/**
 * Invoices: the subscription's metadata and id under `parent.subscription_details` (current API)
 * or `subscription_details` and `subscription` at the top (older versions).
 */
function invoice(effect: Effect) {
  return (object: Json): ReadEvent => {
    const current = obj(obj(object.parent).subscription_details);
    const older = obj(object.subscription_details);
    const ref = refFrom(
      current.metadata ?? older.metadata,
      current.subscription ?? object.subscription,
    );
    return { ref, effect, fields: idsOf(ref, object.customer) };
  };
}

/** The processor's subscription object itself (`customer.subscription.*`). */
function subscription(effect: (s: Json) => Effect) {
  return (object: Json): ReadEvent => {
    const ref = refFrom(object.metadata, object.id);
    return { ref, effect: effect(object), fields: idsOf(ref, object.customer) };
  };
}

function idsOf(ref: EventRef, customer: unknown): EventFields {
  const fields: EventFields = {};
  if (ref.processorSubscriptionId) fields.processorSubscriptionId = ref.processorSubscriptionId;
  const customerId = idOf(customer);
  if (customerId) fields.processorCustomerId = customerId;
  return fields;
}

function updatedEffect(s: Json): Effect {
  switch (s.status) {
    case 'active':
      return 'renewal_paid';
    case 'past_due':
    case 'unpaid':
      return 'renewal_failed';
    default:
      // trialing, incomplete, canceled, paused...: the other events of the table decide.
      return 'none';
  }
}

/** One handler per event type the service acts on (docs/checkout.md); others are ignored. */
export const SUBSCRIPTION_EVENT_READERS: Readonly<Record<string, (object: Json) => ReadEvent>> = {
  'checkout.session.completed': session((s) =>
    SETTLED.has(String(s.payment_status)) ? 'checkout_paid' : 'checkout_unpaid',
  ),
  'checkout.session.async_payment_succeeded': session(() => 'checkout_paid'),
  'checkout.session.async_payment_failed': session(() => 'checkout_payment_failed'),
  'checkout.session.expired': session(() => 'checkout_expired'),
  'invoice.paid': invoice('renewal_paid'),
  'invoice.payment_failed': invoice('renewal_failed'),
  'customer.subscription.updated': subscription(updatedEffect),
  'customer.subscription.deleted': subscription(() => 'ended'),
};

/** Reads an event's object (or one the processor's API returned) as the handler of `type` does. */
export function readEventObject(type: string, object: unknown): ReadEvent | undefined {
  const read = Object.hasOwn(SUBSCRIPTION_EVENT_READERS, type)
    ? SUBSCRIPTION_EVENT_READERS[type]
    : undefined;
  return read?.(obj(object));
}
