import type Stripe from 'stripe';
import type { SubscriptionRecord } from '../subscription.entity';

export type PaidDetails = Pick<
  SubscriptionRecord,
  | 'customerEmail'
  | 'customerName'
  | 'customerPhone'
  | 'recipientName'
  | 'livingSituation'
  | 'primaryConcern'
  | 'shippingAddress'
  | 'recipientZip'
  | 'processorSubscriptionId'
  | 'processorCustomerId'
>;

type Address = Stripe.Address;
interface ShippingDetails {
  address?: Address | null;
  name?: string | null;
}
/** Fields older API versions sent at the top level, before `collected_information`. */
interface LegacySessionFields {
  shipping_details?: ShippingDetails | null;
  shipping?: ShippingDetails | null;
}

/** "1 Main St, Apt 2, Springfield, IL 62701, US" */
export function formatAddress(a: Address | null | undefined): string | null {
  if (typeof a !== 'object' || a === null) return null;
  const region = [a.state, a.postal_code].filter(Boolean).join(' ');
  const parts = [a.line1, a.line2, a.city, region, a.country].filter(
    (p): p is string => typeof p === 'string' && p.trim() !== '',
  );
  return parts.length > 0 ? parts.map((p) => p.trim()).join(', ') : null;
}

function shippingOf(session: Stripe.Checkout.Session): ShippingDetails | null {
  const legacy = session as unknown as LegacySessionFields;
  return (
    session.collected_information?.shipping_details ??
    legacy.shipping_details ??
    legacy.shipping ??
    null
  );
}

function customField(session: Stripe.Checkout.Session, key: string) {
  const fields: unknown = session.custom_fields;
  if (!Array.isArray(fields)) return undefined;
  return (fields as (Stripe.Checkout.Session.CustomField | null)[]).find((f) => f?.key === key);
}

/**
 * A signed event is still outside data: a field of the wrong type or length must not fail the
 * transaction (a 500 makes the processor retry forever), so each value is a string that fits or null.
 */
export function text(v: unknown, max: number): string | null {
  return typeof v === 'string' && v !== '' ? v.slice(0, max) : null;
}

const idOf = (v: unknown): string | null =>
  text(typeof v === 'object' && v !== null ? (v as { id?: unknown }).id : v, 255);

/**
 * Every item of the source document's Events table, read where the pinned API version puts it
 * (shipping under `collected_information`), and where older versions put it.
 */
export function paidDetails(session: Stripe.Checkout.Session): PaidDetails {
  const customer = session.customer_details;
  const address = shippingOf(session)?.address ?? null;
  return {
    customerEmail: text(customer?.email, 320),
    customerName: text(customer?.name, 200),
    customerPhone: text(customer?.phone, 40),
    recipientName: text(customField(session, 'recipient_name')?.text?.value, 255),
    livingSituation: text(customField(session, 'living_situation')?.dropdown?.value, 100),
    primaryConcern: text(customField(session, 'primary_concern')?.dropdown?.value, 100),
    shippingAddress: formatAddress(address),
    recipientZip: text(address?.postal_code, 20),
    processorSubscriptionId: idOf(session.subscription),
    processorCustomerId: idOf(session.customer),
  };
}
