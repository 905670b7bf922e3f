import type Stripe from 'stripe';
import { formatAddress, paidDetails } from './checkout-session.details';
import { shippingAddress } from '../subscription.test-data';

const address = shippingAddress;

const session = (fields: Record<string, unknown>) => fields as unknown as Stripe.Checkout.Session;

describe('formatAddress', () => {
  it('joins the present parts into one line', () => {
    expect(formatAddress(address)).toBe('1 Main St, Springfield, IL 62701, US');
    expect(formatAddress({ ...address, line2: ' Apt 2 ' })).toBe(
      '1 Main St, Apt 2, Springfield, IL 62701, US',
    );
  });

  it('gives null for no address or an empty one', () => {
    expect(formatAddress(null)).toBeNull();
    expect(
      formatAddress({
        line1: '',
        line2: null,
        city: null,
        state: null,
        postal_code: null,
        country: null,
      }),
    ).toBeNull();
  });
});

describe('paidDetails', () => {
  it('reads shipping from collected_information first, as the pinned API version sends it', () => {
    const details = paidDetails(
      session({
        collected_information: { shipping_details: { name: 'A', address } },
        shipping_details: { name: 'B', address: { ...address, postal_code: '00000' } },
        customer: { id: 'cus_1', object: 'customer' },
        subscription: 'sub_1',
      }),
    );
    expect(details).toMatchObject({
      recipientZip: '62701',
      processorCustomerId: 'cus_1',
      processorSubscriptionId: 'sub_1',
    });
  });

  it('falls back to the older top-level fields and tolerates missing ones', () => {
    expect(paidDetails(session({ shipping: { address } }))).toEqual({
      customerEmail: null,
      customerName: null,
      customerPhone: null,
      recipientName: null,
      livingSituation: null,
      primaryConcern: null,
      shippingAddress: '1 Main St, Springfield, IL 62701, US',
      recipientZip: '62701',
      processorSubscriptionId: null,
      processorCustomerId: null,
    });
  });
});
