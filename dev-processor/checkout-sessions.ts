import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { parse } from 'qs';

/**
 * Checkout sessions as the payment processor (Stripe) keeps them, shared by `npm run dev:processor`
 * and the test suite's fake (test/support/fake-processor.ts): open, completed and expired sessions
 * in the shapes the API version the service pins returns them.
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
const DEFAULT_CUSTOM_FIELDS: Json[] = [
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
const TEST_REFS: CompletedRefs = { customer: 'cus_test_123', subscription: 'sub_test_456' };

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

/** A form body as the SDK encodes it (`line_items[0][price]=…`), nested back into objects. */
export function parseForm(body: string): Json {
  return parse(body, { depth: 10, arrayLimit: 100 });
}

export class CheckoutSessions {
  /** By id: what a retrieve answers. */
  readonly sessions = new Map<string, Json>();
  /** What each session was created with (line items, URLs, custom fields): not all of it is returned. */
  private readonly params = new Map<string, Json>();
  /** When each session completed: its subscription's `created`, as the processor sets it. */
  private readonly completedAt = new Map<string, number>();

  /** `baseUrl` serves the hosted page each session's `url` points at. */
  constructor(private readonly baseUrl: () => string) {}

  /** An open session for a record (returns its id); `params` as the create call gave them. */
  open(subscriptionId: string, id = newId('cs_test'), params: Json = {}): string {
    const now = Math.floor(Date.now() / 1000);
    const metadata = (params.metadata as Json | undefined) ?? {
      product: 'lease',
      subscription_id: subscriptionId,
    };
    this.params.set(id, params);
    this.sessions.set(id, {
      id,
      object: 'checkout.session',
      mode: 'subscription',
      status: 'open',
      payment_status: 'unpaid',
      url: `${this.baseUrl()}/c/pay/${id}`,
      client_reference_id: subscriptionId,
      customer_email: params.customer_email ?? null,
      success_url: params.success_url ?? null,
      cancel_url: params.cancel_url ?? null,
      metadata,
      created: now,
      expires_at: now + 86400,
      customer: null,
      subscription: null,
      customer_details: null,
      collected_information: null,
      custom_fields: [],
    });
    return id;
  }

  /** POST /v1/checkout/sessions: a session opened from the create call's (parsed) form. */
  create(params: Json): Json {
    const id = this.open(str(params.client_reference_id), undefined, params);
    return this.sessions.get(id)!;
  }

  /** The create call's parameters of a session. */
  paramsOf(id: string): Json | undefined {
    return this.params.get(id);
  }

  /** The customer finished the hosted page. */
  complete(
    id: string,
    fields: Json = {},
    buyer: Buyer = SAMPLE_BUYER,
    refs: CompletedRefs = TEST_REFS,
  ): Json {
    const session = this.get(id);
    const asked = this.params.get(id)?.custom_fields;
    const done = {
      ...session,
      ...completedSession(
        String(session.client_reference_id),
        buyer,
        refs,
        Array.isArray(asked) ? (asked as Json[]) : DEFAULT_CUSTOM_FIELDS,
      ),
      ...fields,
    };
    this.sessions.set(id, done);
    this.completedAt.set(id, Math.floor(Date.now() / 1000));
    return done;
  }

  expire(id: string): Json {
    const expired = { ...this.get(id), status: 'expired', url: null };
    this.sessions.set(id, expired);
    return expired;
  }

  /** GET /v1/checkout/sessions/{id}, with `expand[]=subscription` as the processor does it. */
  retrieve(id: string, expand: string[]): Json | undefined {
    const session = this.sessions.get(id);
    if (!session) return undefined;
    const sub = session.subscription;
    if (!expand.includes('subscription') || typeof sub !== 'string') return session;
    return {
      ...session,
      subscription: {
        id: sub,
        object: 'subscription',
        status: 'active',
        created: this.completedAt.get(id) ?? session.created,
        customer: session.customer,
        metadata: session.metadata,
      },
    };
  }

  clear(): void {
    this.sessions.clear();
    this.params.clear();
    this.completedAt.clear();
  }

  private get(id: string): Json {
    const session = this.sessions.get(id);
    if (!session) throw new Error(`processor: no session ${id}`);
    return session;
  }
}

export const SESSIONS_PATH = '/v1/checkout/sessions';

/** A form or JSON value as text: parsed forms hold strings, arrays and objects. */
export const str = (v: unknown): string =>
  typeof v === 'string' ? v : v === undefined || v === null ? '' : JSON.stringify(v);

export const newId = (prefix: string): string => `${prefix}_${randomBytes(12).toString('hex')}`;

/** The `expand[]` values of a query string. */
export function expandOf(query: string): string[] {
  return [...new URLSearchParams(query).entries()]
    .filter(([k]) => k.startsWith('expand'))
    .map(([, v]) => v);
}

/** The processor's error body. */
export function apiError(type: string, code: string | undefined, message: string, param?: string) {
  return { error: { type, ...(code ? { code } : {}), message, ...(param ? { param } : {}) } };
}

export const noSuchSession = (id: string) =>
  apiError(
    'invalid_request_error',
    'resource_missing',
    `No such checkout.session: '${id}'`,
    'session',
  );

export function send(res: ServerResponse, status: number, body: unknown): void {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(json),
    'Request-Id': `req_${randomBytes(6).toString('hex')}`,
  });
  res.end(json);
}
