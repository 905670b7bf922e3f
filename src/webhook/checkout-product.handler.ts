import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';

/** What one event did; stored beside its id. */
export type WebhookOutcome =
  | 'received'
  | 'applied'
  | 'ignored'
  | 'unknown_product'
  | 'unknown_subscription'
  | 'already_paid'
  | 'awaiting_payment';

/**
 * Handles a completed checkout for one product (`metadata.product`). Runs inside the transaction
 * that records the event, and must use only the manager it is given.
 */
export interface CheckoutProductHandler {
  readonly product: string;
  completed(session: Stripe.Checkout.Session, manager: EntityManager): Promise<WebhookOutcome>;
}

export const CHECKOUT_PRODUCT_HANDLERS = Symbol('CHECKOUT_PRODUCT_HANDLERS');
