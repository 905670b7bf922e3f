import { Injectable, Logger } from '@nestjs/common';
import { isUUID } from 'class-validator';
import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import type { CheckoutProductHandler, WebhookOutcome } from '../webhook/checkout-product.handler';
import { paidDetails, text } from './checkout-session.details';
import { LEASE_PRODUCT } from './checkout-session.params';
import { Subscription } from './subscription.entity';

/** Payment states of a completed session that mean the money is settled (or none was due). */
const SETTLED = new Set(['paid', 'no_payment_required']);

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
    // A conditional update, so a concurrent or late event cannot move a paid record.
    const result = await manager
      .createQueryBuilder()
      .update(Subscription)
      .set({
        ...paidDetails(session),
        status: 'paid',
        paidAt: () => 'now()',
        checkoutSessionId: text(session.id, 255),
      })
      .where('id = :id AND status = :pending', { id, pending: 'pending' })
      .execute();
    if (result.affected) return 'applied';
    const exists = await manager.existsBy(Subscription, { id });
    return exists ? 'already_paid' : this.unknown(session, id);
  }

  private unknown(session: Stripe.Checkout.Session, id: string): WebhookOutcome {
    this.logger.warn(`session ${session.id} names no known subscription (${id || 'none'})`);
    return 'unknown_subscription';
  }
}
