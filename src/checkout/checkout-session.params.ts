import type Stripe from 'stripe';
import { LEASE_PRODUCT } from '../subscription/subscription.entity';
import { LIVING_SITUATIONS, PRIMARY_CONCERNS } from './care-options';

/** The same for every session. */
const CUSTOM_FIELDS: Stripe.Checkout.SessionCreateParams.CustomField[] = [
  {
    key: 'recipient_name',
    label: { type: 'custom', custom: 'Care recipient name' },
    type: 'text',
    text: { maximum_length: 120 },
  },
  {
    key: 'living_situation',
    label: { type: 'custom', custom: 'Recipient living situation' },
    type: 'dropdown',
    dropdown: { options: [...LIVING_SITUATIONS] },
  },
  {
    key: 'primary_concern',
    label: { type: 'custom', custom: 'Main concern' },
    type: 'dropdown',
    dropdown: { options: [...PRIMARY_CONCERNS] },
  },
];

export interface LeaseSessionInput {
  subscriptionId: string;
  leasePriceId: string;
  monthlyPriceId: string;
  siteUrl: string;
  email?: string;
  coupon?: string;
}

/** The hosted checkout session for one lease subscription (docs/checkout.md). */
export function leaseSessionParams(input: LeaseSessionInput): Stripe.Checkout.SessionCreateParams {
  const metadata = { product: LEASE_PRODUCT, subscription_id: input.subscriptionId };
  return {
    mode: 'subscription',
    line_items: [
      { price: input.leasePriceId, quantity: 1 },
      { price: input.monthlyPriceId, quantity: 1 },
    ],
    ...(input.coupon ? { discounts: [{ coupon: input.coupon }] } : {}),
    ...(input.email ? { customer_email: input.email } : {}),
    phone_number_collection: { enabled: true },
    shipping_address_collection: { allowed_countries: ['US'] },
    custom_fields: CUSTOM_FIELDS,
    client_reference_id: input.subscriptionId,
    metadata,
    subscription_data: { metadata },
    // The processor substitutes {CHECKOUT_SESSION_ID} itself.
    success_url: `${input.siteUrl}/plans/success?session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${input.siteUrl}/plans/cancel`,
  };
}

/** Derived from the subscription, so a retried call can never open a second session for it. */
export function checkoutIdempotencyKey(subscriptionId: string): string {
  return `checkout-session-${subscriptionId}`;
}
