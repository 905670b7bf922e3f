import Stripe from 'stripe';
import type { Json } from './completed-session';
import { newId } from './processor-http';

/** Where the service takes the processor's events (src/processor-webhook/processor-webhook.controller.ts). */
export const SERVICE_WEBHOOK_PATH = '/api/payment-processor/webhook';
/** Waits before each resend of an event the service did not take, as the processor retries (shorter). */
const RESEND_AFTER_SECONDS = [5, 30, 120];
const SEND_TIMEOUT_MS = 10_000;

export interface EnvelopeOptions {
  id?: string;
  /** Seconds since 1970; now by default. */
  created?: number;
  /** The API version the payload is shaped for; the SDK's pinned one by default. */
  apiVersion?: string;
}

/** An event as the processor wraps an object it reports on. */
export function eventEnvelope(type: string, object: Json, o: EnvelopeOptions = {}): Json {
  return {
    id: o.id ?? newId('evt'),
    object: 'event',
    api_version: o.apiVersion ?? Stripe.API_VERSION,
    created: o.created ?? Math.floor(Date.now() / 1000),
    livemode: false,
    pending_webhooks: 1,
    request: { id: null, idempotency_key: null },
    type,
    data: { object },
  };
}

export interface SendOutcome {
  status?: number;
  error?: string;
}

/**
 * Posts events to the service signed as the processor signs them (`Stripe-Signature: t=…,v1=…`,
 * made by the SDK's own helper), and resends one the service did not take a few times.
 */
export class EventSender {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly serviceUrl: string,
    private readonly webhookSecret: string,
    private readonly log: (line: string) => void,
  ) {}

  get endpoint(): string {
    return `${this.serviceUrl.replace(/\/+$/, '')}${SERVICE_WEBHOOK_PATH}`;
  }

  /** The first attempt, awaited; failed ones are resent in the background. */
  async send(event: Json): Promise<SendOutcome> {
    const outcome = await this.attempt(event, 1);
    if (!ok(outcome)) this.resend(event, 0);
    return outcome;
  }

  close(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private resend(event: Json, step: number): void {
    const wait = RESEND_AFTER_SECONDS[step];
    if (wait === undefined) {
      this.log(`  gave up on ${String(event.id)} after ${step + 1} attempts`);
      return;
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      void this.attempt(event, step + 2).then((o) => ok(o) || this.resend(event, step + 1));
    }, wait * 1000);
    this.timers.add(timer);
  }

  private async attempt(event: Json, n: number): Promise<SendOutcome> {
    const payload = JSON.stringify(event);
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: this.webhookSecret,
    });
    let outcome: SendOutcome;
    try {
      const res = await fetch(this.endpoint, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json; charset=utf-8',
          'Stripe-Signature': signature,
          'User-Agent': 'Stripe/1.0 (+https://stripe.com/docs/webhooks) dev-processor',
        },
        body: payload,
        redirect: 'manual',
        signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
      });
      const text = await res.text();
      outcome = res.ok ? { status: res.status } : { status: res.status, error: text.slice(0, 300) };
    } catch (err) {
      const cause =
        err instanceof Error && err.cause instanceof Error ? `: ${err.cause.message}` : '';
      outcome = { error: `${err instanceof Error ? err.message : String(err)}${cause}` };
    }
    this.log(
      `  ${String(event.type)} ${String(event.id)} -> ${this.endpoint}: ${describe(outcome, n)}`,
    );
    return outcome;
  }
}

const ok = (o: SendOutcome) => o.status !== undefined && o.status >= 200 && o.status < 300;

function describe(o: SendOutcome, attempt: number): string {
  const what = o.status !== undefined ? `${o.status}` : 'no answer';
  const hint =
    o.status === 400 && /signature/i.test(o.error ?? '')
      ? ' (is STRIPE_WEBHOOK_SECRET the secret printed above?)'
      : o.status === 503
        ? ' (is STRIPE_WEBHOOK_SECRET set?)'
        : '';
  return `${what}${o.error ? ` ${o.error}` : ''}${hint} (attempt ${attempt})`;
}
