import {
  Buyer,
  CompletedRefs,
  completedSession,
  DEFAULT_CUSTOM_FIELDS,
  Json,
  SAMPLE_BUYER,
  TEST_REFS,
} from './completed-session';
import { apiError, newId, noSuchSession, str } from './processor-http';

/**
 * Checkout sessions as the payment processor (Stripe) keeps them, shared by `npm run dev:processor`
 * and the test suite's fake (test/support/fake-processor.ts): open, completed and expired sessions
 * in the shapes the API version the service pins returns them.
 */
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

  /**
   * `POST /v1/checkout/sessions/{id}/expire`: an open session expires; the processor refuses one
   * that is complete or expired already with a 400, and an unknown one with a 404.
   */
  expireOpen(id: string): { status: number; body: Json } {
    const session = this.sessions.get(id);
    if (!session) return { status: 404, body: noSuchSession(id) };
    if (session.status !== 'open') {
      const message = `Only Checkout Sessions with a status in ["open"] can be expired. This Checkout Session has a status of "${String(session.status)}".`;
      return { status: 400, body: apiError('invalid_request_error', undefined, message) };
    }
    return { status: 200, body: this.expire(id) };
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
