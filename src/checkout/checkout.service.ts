import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import type Stripe from 'stripe';
import { Repository } from 'typeorm';
import { AppException } from '../common/errors/app.exception';
import { ErrorCode } from '../common/errors/error-code.enum';
import { AppConfig } from '../config/app-config';
import { CheckoutConfigDto, CheckoutResponseDto } from './checkout-response.dto';
import {
  checkoutIdempotencyKey,
  LEASE_PRODUCT,
  leaseSessionParams,
} from './checkout-session.params';
import { CreateCheckoutDto } from './create-checkout.dto';
import { PaymentProcessorClient, stripeSdk } from './payment-processor.client';
import { Subscription } from './subscription.entity';

const CURRENCY = 'usd';

@Injectable()
export class CheckoutService {
  private readonly logger = new Logger('Checkout');

  constructor(
    private readonly config: AppConfig,
    private readonly processor: PaymentProcessorClient,
    @InjectRepository(Subscription) private readonly subscriptions: Repository<Subscription>,
  ) {}

  checkoutConfig(): CheckoutConfigDto {
    return {
      enabled: this.config.checkoutEnabled,
      lease_cents: this.config.leaseCents,
      monthly_cents: this.config.monthlyCents,
      currency: CURRENCY,
    };
  }

  /**
   * Commits the pending intent first (it must survive a processor failure), then opens the hosted
   * session outside any transaction and records its id.
   */
  async start(dto: CreateCheckoutDto): Promise<CheckoutResponseDto> {
    if (dto.contains_phi === true) {
      throw new AppException(
        ErrorCode.PhiNotAccepted,
        HttpStatus.BAD_REQUEST,
        'This public checkout does not accept protected health information.',
      );
    }
    const { stripe } = this.config;
    if (!this.config.checkoutEnabled || !stripe.leasePriceId || !stripe.monthlyPriceId) {
      throw new AppException(
        ErrorCode.CheckoutNotConfigured,
        HttpStatus.SERVICE_UNAVAILABLE,
        'Checkout is not configured.',
      );
    }
    const coupon = dto.coupon?.toLowerCase();
    const subscription = await this.subscriptions.save(
      this.subscriptions.create({
        product: LEASE_PRODUCT,
        status: 'pending',
        name: dto.name ?? null,
        email: dto.email ?? null,
        coupon: coupon ?? null,
        source: dto.source ?? 'plans',
        leaseCents: this.config.leaseCents,
        monthlyCents: this.config.monthlyCents,
        currency: CURRENCY,
      }),
    );
    const params = leaseSessionParams({
      subscriptionId: subscription.id,
      leasePriceId: stripe.leasePriceId,
      monthlyPriceId: stripe.monthlyPriceId,
      siteUrl: this.config.siteUrl,
      email: dto.email,
      coupon,
    });
    const session = await this.openSession(subscription.id, params, coupon !== undefined);
    await this.subscriptions.update(subscription.id, { checkoutSessionId: session.id });
    return {
      ok: true,
      subscription_id: subscription.id,
      checkout_url: session.url,
      lease_cents: subscription.leaseCents,
      monthly_cents: subscription.monthlyCents,
      currency: CURRENCY,
    };
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
      await this.noteError(subscriptionId, err);
      if (withCoupon && isCouponError(err)) {
        throw new AppException(
          ErrorCode.InvalidCoupon,
          HttpStatus.BAD_REQUEST,
          'The coupon code is not valid.',
        );
      }
      throw new AppException(
        ErrorCode.ProcessorUnavailable,
        HttpStatus.BAD_GATEWAY,
        'The payment processor could not be reached; please try again.',
      );
    }
  }

  /** Keeps the reason on the pending record; a failure to note it must not hide the real error. */
  private async noteError(subscriptionId: string, err: unknown): Promise<void> {
    const reason = describeError(err);
    this.logger.warn(`checkout session for ${subscriptionId} failed: ${reason}`);
    await this.subscriptions
      .update(subscriptionId, { lastProcessorError: reason })
      .catch((e: unknown) => this.logger.error(`could not note the error: ${String(e)}`));
  }
}

/** The processor refuses an unknown, expired or used-up coupon as an invalid discount. */
function isCouponError(err: unknown): boolean {
  if (!(err instanceof stripeSdk().errors.StripeInvalidRequestError)) return false;
  return (
    (err.param ?? '').startsWith('discounts') ||
    err.code === 'coupon_expired' ||
    /coupon/i.test(err.message)
  );
}

function describeError(err: unknown): string {
  if (err instanceof stripeSdk().errors.StripeError) {
    const parts = [err.type, err.statusCode, err.code, err.message].filter((p) => p !== undefined);
    return parts.join(' ').slice(0, 500);
  }
  return (err instanceof Error ? err.message : String(err)).slice(0, 500);
}
