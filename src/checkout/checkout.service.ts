import { Injectable, Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import { CheckoutError } from './checkout.error';
import { ErrorCode } from '../common/errors/error-code.enum';
import { AppConfig } from '../config/app-config';
import { checkoutIdempotencyKey, leaseSessionParams } from './checkout-session.params';
import { couponAsStored, CreateCheckoutDto } from './create-checkout.dto';
import { PaymentProcessorClient } from '../processor/payment-processor.client';
import {
  classifyProcessorError,
  describeProcessorError,
  ProcessorFailure,
} from '../processor/processor-errors';
import { Subscription, SubscriptionStatus } from '../subscription/subscription.entity';
import { SubscriptionService } from '../subscription/subscription.service';

const CURRENCY = 'usd';

/** Whether checkout is available, and what it costs. */
export interface CheckoutOffer {
  enabled: boolean;
  leaseCents: number;
  monthlyCents: number;
  currency: string;
}

/** A stored intent and the hosted page that pays for it. */
export interface StartedCheckout {
  subscription: Subscription;
  checkoutUrl: string;
}

@Injectable()
export class CheckoutService {
  private readonly logger = new Logger('Checkout');

  constructor(
    private readonly config: AppConfig,
    private readonly processor: PaymentProcessorClient,
    private readonly subscriptions: SubscriptionService,
  ) {}

  offer(): CheckoutOffer {
    return {
      enabled: this.config.checkoutEnabled,
      leaseCents: this.config.leaseCents,
      monthlyCents: this.config.monthlyCents,
      currency: CURRENCY,
    };
  }

  /**
   * Commits the pending intent first (it must survive a processor failure), then opens the hosted
   * session outside any transaction and records its id.
   */
  async start(dto: CreateCheckoutDto): Promise<StartedCheckout> {
    if (dto.contains_phi === true) {
      throw new CheckoutError(
        ErrorCode.PhiNotAccepted,
        'This public checkout does not accept protected health information.',
      );
    }
    const { stripe } = this.config;
    if (!this.config.checkoutEnabled || !stripe.leasePriceId || !stripe.monthlyPriceId) {
      throw new CheckoutError(ErrorCode.CheckoutNotConfigured, 'Checkout is not configured.');
    }
    const coupon = dto.coupon === undefined ? undefined : couponAsStored(dto.coupon);
    const subscription = await this.subscriptions.createPending({
      name: dto.name ?? null,
      email: dto.email ?? null,
      coupon: coupon ?? null,
      source: dto.source ?? 'plans',
      leaseCents: this.config.leaseCents,
      monthlyCents: this.config.monthlyCents,
      currency: CURRENCY,
    });
    const params = leaseSessionParams({
      subscriptionId: subscription.id,
      leasePriceId: stripe.leasePriceId,
      monthlyPriceId: stripe.monthlyPriceId,
      siteUrl: this.config.siteUrl,
      email: dto.email,
      coupon,
    });
    const session = await this.openSession(subscription.id, params, coupon !== undefined);
    await this.subscriptions.recordCheckoutSession(subscription.id, session.id);
    return { subscription, checkoutUrl: session.url };
  }

  private async openSession(
    subscriptionId: string,
    params: Stripe.Checkout.SessionCreateParams,
    withCoupon: boolean,
  ): Promise<{ id: string; url: string }> {
    try {
      const session = await this.processor.createCheckoutSession(
        params,
        checkoutIdempotencyKey(subscriptionId),
      );
      if (!session.url) throw new Error(`checkout session ${session.id} has no url`);
      return { id: session.id, url: session.url };
    } catch (err) {
      const failure = classifyProcessorError(err, withCoupon);
      await this.noteError(subscriptionId, err, failure);
      throw failureException(failure);
    }
  }

  /**
   * Keeps the reason on the pending record; a failure to note it must not hide the real error. A
   * refusal other than the coupon is our fault (a wrong price id, a bad key): logged as an error.
   */
  private async noteError(
    subscriptionId: string,
    err: unknown,
    failure: ProcessorFailure,
  ): Promise<void> {
    const reason = describeProcessorError(err);
    const line = `checkout session for ${subscriptionId} failed (${failure}): ${reason}`;
    if (failure === 'rejected') this.logger.error(line);
    else this.logger.warn(line);
    await this.subscriptions
      .noteProcessorError(subscriptionId, reason)
      .catch((e: unknown) => this.logger.error(`could not note the error: ${String(e)}`));
  }

  /** What the success page polls: the status of the record behind a hosted session, nothing else. */
  async statusOfSession(sessionId: string): Promise<SubscriptionStatus> {
    const status = await this.subscriptions.statusOfCheckoutSession(sessionId);
    if (!status) {
      throw new CheckoutError(ErrorCode.NotFound, 'No such checkout session.');
    }
    return status;
  }
}

function failureException(failure: ProcessorFailure): CheckoutError {
  switch (failure) {
    case 'coupon':
      return new CheckoutError(ErrorCode.InvalidCoupon, 'The coupon code is not valid.');
    case 'rejected':
      return new CheckoutError(
        ErrorCode.ProcessorRejected,
        'The payment processor refused the checkout; please contact us.',
      );
    case 'unavailable':
      return new CheckoutError(
        ErrorCode.ProcessorUnavailable,
        'The payment processor could not be reached; please try again.',
      );
  }
}
