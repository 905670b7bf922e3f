import { readEventObject, SUBSCRIPTION_EVENT_READERS } from './subscription-events';
import { shippingAddress } from '../subscription.test-data';

const ours = { product: 'lease', subscription_id: '7a0e3f8e-0000-4000-8000-000000000001' };
const address = shippingAddress;

describe('subscription event readers', () => {
  it('handle exactly the event types of the transition table', () => {
    expect(Object.keys(SUBSCRIPTION_EVENT_READERS).sort()).toEqual([
      'checkout.session.async_payment_failed',
      'checkout.session.async_payment_succeeded',
      'checkout.session.completed',
      'checkout.session.expired',
      'customer.subscription.deleted',
      'customer.subscription.updated',
      'invoice.paid',
      'invoice.payment_failed',
    ]);
    expect(readEventObject('customer.created', {})).toBeUndefined();
    expect(readEventObject('toString', {})).toBeUndefined();
  });

  describe('checkout sessions', () => {
    const session = {
      id: 'cs_test_1',
      metadata: ours,
      subscription: 'sub_1',
      customer: { id: 'cus_1', object: 'customer' },
    };

    it.each([
      ['paid', 'checkout_paid'],
      ['no_payment_required', 'checkout_paid'],
      ['unpaid', 'checkout_unpaid'],
    ])('completed with payment_status %s means %s', (paymentStatus, effect) => {
      const read = readEventObject('checkout.session.completed', {
        ...session,
        payment_status: paymentStatus,
      });
      expect(read?.effect).toBe(effect);
    });

    it('read our id, the processor ids and the shipping name in the current shape', () => {
      const read = readEventObject('checkout.session.async_payment_succeeded', {
        ...session,
        collected_information: { shipping_details: { name: 'Ruth', address } },
      });
      expect(read).toMatchObject({
        ref: { subscriptionId: ours.subscription_id, processorSubscriptionId: 'sub_1' },
        effect: 'checkout_paid',
        fields: {
          checkoutSessionId: 'cs_test_1',
          shippingName: 'Ruth',
          recipientZip: '62701',
          processorCustomerId: 'cus_1',
        },
      });
    });

    it('read shipping at the top in the older shape, and fall back to client_reference_id', () => {
      const read = readEventObject('checkout.session.async_payment_failed', {
        id: 'cs_test_2',
        client_reference_id: ours.subscription_id,
        shipping_details: { name: 'Al', address },
      });
      expect(read).toMatchObject({
        ref: { subscriptionId: ours.subscription_id, product: null },
        effect: 'checkout_payment_failed',
        fields: { shippingName: 'Al', shippingAddress: '1 Main St, Springfield, IL 62701, US' },
      });
    });
  });

  describe('invoices', () => {
    it('read the subscription under parent.subscription_details (current API)', () => {
      const read = readEventObject('invoice.paid', {
        customer: 'cus_1',
        parent: {
          type: 'subscription_details',
          subscription_details: { metadata: ours, subscription: 'sub_1' },
        },
      });
      expect(read).toEqual({
        ref: {
          subscriptionId: ours.subscription_id,
          processorSubscriptionId: 'sub_1',
          product: 'lease',
        },
        effect: 'renewal_paid',
        fields: { processorSubscriptionId: 'sub_1', processorCustomerId: 'cus_1' },
      });
    });

    it('read subscription_details and subscription at the top (older API)', () => {
      const read = readEventObject('invoice.payment_failed', {
        customer: 'cus_1',
        subscription: 'sub_1',
        subscription_details: { metadata: ours },
      });
      expect(read).toMatchObject({
        ref: { subscriptionId: ours.subscription_id, processorSubscriptionId: 'sub_1' },
        effect: 'renewal_failed',
      });
    });

    it('find the record by the processor subscription alone when metadata is missing', () => {
      const read = readEventObject('invoice.paid', { subscription: { id: 'sub_9' } });
      expect(read?.ref).toEqual({
        subscriptionId: null,
        processorSubscriptionId: 'sub_9',
        product: null,
      });
    });
  });

  describe('the processor subscription', () => {
    it.each([
      ['active', 'renewal_paid'],
      ['past_due', 'renewal_failed'],
      ['unpaid', 'renewal_failed'],
      ['trialing', 'none'],
      ['canceled', 'none'],
    ])('updated with status %s means %s', (status, effect) => {
      const read = readEventObject('customer.subscription.updated', {
        id: 'sub_1',
        status,
        metadata: ours,
      });
      expect(read?.effect).toBe(effect);
    });

    it('deleted means ended, found by its metadata or its id', () => {
      expect(readEventObject('customer.subscription.deleted', { id: 'sub_1' })).toEqual({
        ref: { subscriptionId: null, processorSubscriptionId: 'sub_1', product: null },
        effect: 'ended',
        fields: { processorSubscriptionId: 'sub_1' },
      });
    });
  });

  it('take only well-typed, bounded strings from outside data', () => {
    const read = readEventObject('invoice.paid', {
      customer: 42,
      parent: { subscription_details: { metadata: { subscription_id: ['x'] }, subscription: 7 } },
    });
    expect(read).toEqual({
      ref: { subscriptionId: null, processorSubscriptionId: null, product: null },
      effect: 'renewal_paid',
      fields: {},
    });
  });
});
