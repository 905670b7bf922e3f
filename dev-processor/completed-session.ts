/**
 * A checkout session once paid, in the shape the API version the service pins returns it: shared by
 * `npm run dev:processor`, the test suite's fake and its event builders (test/support/).
 */
export type Json = Record<string, unknown>;

/** What the customer types on the hosted page; the session and its completed event carry it. */
export interface Buyer {
  email: string;
  name: string;
  phone: string;
  shipping: {
    name: string;
    line1: string;
    line2: string;
    city: string;
    state: string;
    postal_code: string;
    country: string;
  };
  /** Values of the session's custom fields, by key. */
  fields: Record<string, string>;
}

export const SAMPLE_BUYER: Buyer = {
  email: 'dana@example.com',
  name: 'Dana Carer',
  phone: '+15555550123',
  shipping: {
    name: 'Ruth Carer',
    line1: '1 Main St',
    line2: 'Apt 2',
    city: 'Springfield',
    state: 'IL',
    postal_code: '62701',
    country: 'US',
  },
  fields: {
    recipient_name: 'Ruth Carer',
    living_situation: 'livesalone',
    primary_concern: 'medicationreminders',
  },
};

/** The custom fields the service asks for, as a session created without its params shows them. */
export const DEFAULT_CUSTOM_FIELDS: Json[] = [
  {
    key: 'recipient_name',
    type: 'text',
    label: { type: 'custom', custom: 'Care recipient name' },
    text: { maximum_length: 120 },
  },
  {
    key: 'living_situation',
    type: 'dropdown',
    label: { type: 'custom', custom: 'Recipient living situation' },
    dropdown: { options: [] },
  },
  {
    key: 'primary_concern',
    type: 'dropdown',
    label: { type: 'custom', custom: 'Main concern' },
    dropdown: { options: [] },
  },
];

/** The processor's references for a completed checkout (test values unless given). */
export interface CompletedRefs {
  customer: string;
  subscription: string;
}
export const TEST_REFS: CompletedRefs = { customer: 'cus_test_123', subscription: 'sub_test_456' };

/** Custom fields as a completed session returns them: each with the value the customer gave. */
function filledCustomFields(fields: Json[], values: Record<string, string>): Json[] {
  return fields.map((f) => {
    const key = String(f.key);
    const value = values[key] ?? null;
    const text = (f.text ?? {}) as Json;
    const dropdown = (f.dropdown ?? {}) as Json;
    const base = { key, type: f.type, label: f.label, optional: f.optional === 'true' };
    return f.type === 'dropdown'
      ? { ...base, dropdown: { value, default_value: null, options: dropdown.options ?? [] } }
      : {
          ...base,
          text: {
            value,
            default_value: null,
            maximum_length: text.maximum_length ? Number(text.maximum_length) : null,
            minimum_length: null,
          },
        };
  });
}

/**
 * The session once paid: customer details, shipping under `collected_information` and the custom
 * fields with their values, as `checkout.session.completed` carries it.
 */
export function completedSession(
  subscriptionId: string,
  buyer: Buyer = SAMPLE_BUYER,
  refs: CompletedRefs = TEST_REFS,
  customFields: Json[] = DEFAULT_CUSTOM_FIELDS,
): Json {
  const { name, ...address } = buyer.shipping;
  return {
    object: 'checkout.session',
    mode: 'subscription',
    status: 'complete',
    payment_status: 'paid',
    client_reference_id: subscriptionId,
    metadata: { product: 'lease', subscription_id: subscriptionId },
    customer: refs.customer,
    subscription: refs.subscription,
    customer_details: {
      email: buyer.email,
      name: buyer.name,
      phone: buyer.phone,
      address: null,
      tax_exempt: 'none',
      tax_ids: [],
    },
    collected_information: {
      business_name: null,
      individual_name: null,
      shipping_details: { name, address },
    },
    custom_fields: filledCustomFields(customFields, buyer.fields),
  };
}
