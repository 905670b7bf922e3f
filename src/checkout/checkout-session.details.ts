import type Stripe from 'stripe';
import type { Subscription } from './subscription.entity';

export type PaidDetails = Pick<
  Subscription,
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
  if (!a) return null;
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
  return (session.custom_fields ?? []).find((f) => f.key === key);
}

const idOf = (v: string | { id: string } | null | undefined): string | null =>
  typeof v === 'string' ? v : (v?.id ?? null);

/**
 * Every item of the source document's Events table, read where the pinned API version puts it
 * (shipping under `collected_information`), and where older versions put it.
 */
export function paidDetails(session: Stripe.Checkout.Session): PaidDetails {
  const customer = session.customer_details;
  const address = shippingOf(session)?.address ?? null;
  return {
    customerEmail: customer?.email ?? null,
    customerName: customer?.name ?? null,
    customerPhone: customer?.phone ?? null,
    recipientName: customField(session, 'recipient_name')?.text?.value ?? null,
    livingSituation: customField(session, 'living_situation')?.dropdown?.value ?? null,
    primaryConcern: customField(session, 'primary_concern')?.dropdown?.value ?? null,
    shippingAddress: formatAddress(address),
    recipientZip: address?.postal_code ?? null,
    processorSubscriptionId: idOf(session.subscription),
    processorCustomerId: idOf(session.customer),
  };
}
