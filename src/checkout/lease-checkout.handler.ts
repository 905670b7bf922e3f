import { Injectable, Logger } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import type { CheckoutProductHandler, WebhookOutcome } from '../webhook/checkout-product.handler';
import { paidDetails, text } from './checkout-session.details';
import { LEASE_PRODUCT } from './checkout-session.params';

/** Payment states of a completed session that mean the money is settled (or none was due). */
const SETTLED = new Set(['paid', 'no_payment_required']);

/**
 * pending -> paid with the customer's details, as one constant statement (the query builder rebuilt
 * it per event). Conditional, so a concurrent or late event cannot move a paid record.
 */
const PAY_SQL = `UPDATE subscriptions SET customer_email = $2, customer_name = $3,
  customer_phone = $4, recipient_name = $5, living_situation = $6, primary_concern = $7,
  shipping_address = $8, recipient_zip = $9, processor_subscription_id = $10,
  processor_customer_id = $11, status = 'paid', paid_at = now(), checkout_session_id = $12,
  updated_at = CURRENT_TIMESTAMP WHERE id = $1 AND status = 'pending'`;
const EXISTS_SQL = 'SELECT 1 FROM subscriptions WHERE id = $1';

@Injectable()
export class LeaseCheckoutHandler implements CheckoutProductHandler {
  readonly product = LEASE_PRODUCT;
  private readonly logger = new Logger('LeaseCheckout');

  /** pending -> paid with the customer's details; a paid record is never touched again. */
  async completed(
    session: Stripe.Checkout.Session,
    manager: EntityManager,
  ): Promise<WebhookOutcome> {
    const id = session.metadata?.subscription_id ?? session.client_reference_id ?? '';
    if (!isUUID(id)) return this.unknown(session, id);
    if (!SETTLED.has(session.payment_status)) {
      this.logger.log(`session ${session.id}: payment ${session.payment_status}, not paid yet`);
      return 'awaiting_payment';
    }
    const d = paidDetails(session);
    // On PostgreSQL, TypeORM answers an UPDATE with [rows, affected].
    const [, affected] = await manager.query<[unknown[], number]>(PAY_SQL, [
      id,
      d.customerEmail,
      d.customerName,
      d.customerPhone,
      d.recipientName,
      d.livingSituation,
      d.primaryConcern,
      d.shippingAddress,
      d.recipientZip,
      d.processorSubscriptionId,
      d.processorCustomerId,
      text(session.id, 255),
    ]);
    if (affected > 0) return 'applied';
    const found = await manager.query<unknown[]>(EXISTS_SQL, [id]);
    return found.length > 0 ? 'already_paid' : this.unknown(session, id);
  }

  private unknown(session: Stripe.Checkout.Session, id: string): WebhookOutcome {
    this.logger.warn(`session ${session.id} names no known subscription (${id || 'none'})`);
    return 'unknown_subscription';
  }
}
