import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

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
  return {
    id: evtId(),
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type: 'checkout.session.completed',
    data: {
      object: {
        id: sessionId,
        object: 'checkout.session',
        mode: 'subscription',
        status: 'complete',
        payment_status: 'paid',
        client_reference_id: subscriptionId,
        metadata: { product: 'lease', subscription_id: subscriptionId },
        customer: 'cus_test_123',
        subscription: 'sub_test_456',
        customer_details: {
          email: 'dana@example.com',
          name: 'Dana Carer',
          phone: '+15555550123',
          address: null,
          tax_exempt: 'none',
          tax_ids: [],
        },
        collected_information: {
          business_name: null,
          individual_name: null,
          shipping_details: {
            name: 'Ruth Carer',
            address: {
              line1: '1 Main St',
              line2: 'Apt 2',
              city: 'Springfield',
              state: 'IL',
              postal_code: '62701',
              country: 'US',
            },
          },
        },
        custom_fields: [
          {
            key: 'recipient_name',
            type: 'text',
            label: { type: 'custom', custom: 'Care recipient name' },
            optional: false,
            text: {
              value: 'Ruth Carer',
              default_value: null,
              maximum_length: 120,
              minimum_length: null,
            },
          },
          {
            key: 'living_situation',
            type: 'dropdown',
            label: { type: 'custom', custom: 'Recipient living situation' },
            optional: false,
            dropdown: { value: 'livesalone', default_value: null, options: [] },
          },
          {
            key: 'primary_concern',
            type: 'dropdown',
            label: { type: 'custom', custom: 'Main concern' },
            optional: false,
            dropdown: { value: 'medicationreminders', default_value: null, options: [] },
          },
        ],
        ...session,
      },
    },
  };
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
