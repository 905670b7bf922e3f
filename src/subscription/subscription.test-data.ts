import type Stripe from 'stripe';

/** A shipping address as the processor sends it, for the subscription unit specs. */
export const shippingAddress: Stripe.Address = {
  line1: '1 Main St',
  line2: null,
  city: 'Springfield',
  state: 'IL',
  postal_code: '62701',
  country: 'US',
};
