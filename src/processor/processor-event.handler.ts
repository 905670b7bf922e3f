import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';

/** What one event did; stored beside its id. */
export type WebhookOutcome =
  | 'received'
  | 'applied'
  | 'recorded'
  | 'ignored'
  | 'unchanged'
  | 'already_recorded'
  | 'unknown_product'
  | 'unknown_subscription';

/**
 * Handles one event type (`event.type`). Runs inside the transaction that records the event's id,
 * and must use only the manager it is given.
 */
export interface ProcessorEventHandler {
  readonly type: string;
  handle(event: Stripe.Event, manager: EntityManager): Promise<WebhookOutcome>;
}

export const PROCESSOR_EVENT_HANDLERS = Symbol('PROCESSOR_EVENT_HANDLERS');
