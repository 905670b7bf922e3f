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

/** What one event did, for the record (`outcome`) and the request's access line (the rest). */
export interface HandledEvent {
  outcome: WebhookOutcome;
  /** The record it concerns, when it found one; `from` and `to` when its status moved. */
  subscriptionId?: string;
  from?: string;
  to?: string;
  /**
   * Work for once the event's transaction committed (a processor call); a throw is logged and
   * the record stays marked for reconcile to retry.
   */
  afterCommit?: () => Promise<unknown>;
}

/**
 * Handles one event type (`event.type`). Runs inside the transaction that records the event's id,
 * and must use only the manager it is given.
 */
export interface ProcessorEventHandler {
  readonly type: string;
  handle(event: Stripe.Event, manager: EntityManager): Promise<HandledEvent>;
}

export const PROCESSOR_EVENT_HANDLERS = Symbol('PROCESSOR_EVENT_HANDLERS');
