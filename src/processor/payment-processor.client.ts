import { Injectable } from '@nestjs/common';
import type Stripe from 'stripe';
import { timedProcessorCall } from '../common/metrics/metrics';
import { AppConfig } from '../config/app-config';

/** The API version this code reads payloads for; TypeScript flags it when the SDK moves on. */
const PROCESSOR_API_VERSION = '2026-10-28.endive';
/** The processor's own limit on how old a signed webhook may be. */
const WEBHOOK_TOLERANCE_SECONDS = 300;

let sdk: typeof Stripe | undefined;

/**
 * The Stripe SDK, required on first use: the server's boot calls this when the processor is
 * configured (main.ts), so no request waits on the load; a command that never calls the processor
 * (most of the CLI) never loads it.
 */
export function stripeSdk(): typeof Stripe {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded on demand, see above
  sdk ??= require('stripe') as typeof Stripe;
  return sdk;
}

/**
 * The one place the Stripe SDK is built: from AppConfig, pointed at STRIPE_API_BASE when set,
 * with a bounded timeout and retries (the SDK resends a failed POST with the same idempotency key).
 * Built on the first call; the SDK itself is loaded at the server's boot (stripeSdk).
 */
@Injectable()
export class PaymentProcessorClient {
  private stripe?: Stripe;

  constructor(private readonly config: AppConfig) {}

  private client(): Stripe {
    if (this.stripe) return this.stripe;
    const s = this.config.stripe;
    if (!s.secretKey) throw new Error('The payment processor is not configured');
    const base = s.apiBase;
    const protocol = base?.protocol === 'http:' ? 'http' : 'https';
    const StripeSdk = stripeSdk();
    this.stripe = new StripeSdk(s.secretKey, {
      apiVersion: PROCESSOR_API_VERSION,
      timeout: s.timeoutMs,
      maxNetworkRetries: s.maxNetworkRetries,
      telemetry: false,
      appInfo: { name: 'device-care-service', version: this.config.version },
      ...(base
        ? {
            host: base.hostname,
            port: base.port || (protocol === 'http' ? 80 : 443),
            protocol,
          }
        : {}),
    });
    return this.stripe;
  }

  /** Creates a hosted checkout session; throws the SDK's StripeError on failure. */
  createCheckoutSession(
    params: Stripe.Checkout.SessionCreateParams,
    idempotencyKey: string,
  ): Promise<Stripe.Checkout.Session> {
    return timedProcessorCall('create_checkout_session', () =>
      this.client().checkout.sessions.create(params, { idempotencyKey }),
    );
  }

  /**
   * Reads a checkout session as the processor has it now, with its subscription expanded (whose
   * `created` is when the checkout completed). Throws the SDK's StripeError on failure.
   */
  retrieveCheckoutSession(id: string): Promise<Stripe.Checkout.Session> {
    return timedProcessorCall('retrieve_checkout_session', () =>
      this.client().checkout.sessions.retrieve(id, { expand: ['subscription'] }),
    );
  }

  /** True when a secret key is set: without one no session can be asked about. */
  get configured(): boolean {
    return Boolean(this.config.stripe.secretKey);
  }

  /**
   * Expires an open hosted checkout session (erasure, contract section 9):
   * `POST /v1/checkout/sessions/{id}/expire`. The processor refuses a session that is no longer
   * open with a 400; throws the SDK's StripeError on failure.
   */
  async expireCheckoutSession(id: string): Promise<void> {
    await timedProcessorCall('expire_checkout_session', () =>
      this.client().checkout.sessions.expire(id),
    );
  }

  /**
   * Deletes the processor's customer (erasure, contract section 9): `DELETE /v1/customers/{id}`,
   * with the client's timeout and retries. Throws the SDK's StripeError on failure.
   */
  async deleteCustomer(id: string): Promise<void> {
    await timedProcessorCall('delete_customer', () => this.client().customers.del(id));
  }

  /**
   * True when the raw body carries a valid signature by one of the secrets (several while one is
   * being rotated). Only the signature: the body is parsed by the caller, under the limits public
   * JSON has (the SDK's own parse threw a 500 at a signed body that was not JSON). The age is
   * judged against `receivedAt` (the caller's Clock), not the SDK's own reading of the time.
   */
  verifySignature(
    rawBody: Buffer,
    signature: string,
    secrets: string[],
    receivedAt: Date,
  ): boolean {
    // One timestamp only: the SDK checks the signature against one `t=` and this guard could read
    // another. And the SDK bounds only the age; a future timestamp would stay replayable as long.
    const at = signedAt(signature);
    const nowMs = receivedAt.getTime();
    if (at === undefined || at > nowMs / 1000 + WEBHOOK_TOLERANCE_SECONDS) return false;
    const { webhooks, errors } = stripeSdk();
    const verifier = webhooks.signature;
    if (!verifier) throw new Error('The processor SDK has no webhook signature verifier');
    return secrets.some((secret) => {
      try {
        return verifier.verifyHeader(
          rawBody,
          signature,
          secret,
          WEBHOOK_TOLERANCE_SECONDS,
          undefined, // the SDK's default crypto provider
          nowMs,
        );
      } catch (err) {
        if (!(err instanceof errors.StripeSignatureVerificationError)) throw err;
        return false;
      }
    });
  }
}

/**
 * The `t=` of a Stripe-Signature header, in seconds: undefined unless the header has exactly one
 * `t=` element holding a plain number.
 */
export function signedAt(signature: string): number | undefined {
  const values = signature
    .split(',')
    .map((part) => part.split('='))
    .filter(([key]) => key.trim() === 't')
    .map(([, value]) => value?.trim() ?? '');
  if (values.length !== 1 || !/^\d{1,12}$/.test(values[0])) return undefined;
  return Number(values[0]);
}
