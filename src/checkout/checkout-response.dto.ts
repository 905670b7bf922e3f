import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { SUBSCRIPTION_STATUSES } from '../subscription/subscription.entity';
import type { SubscriptionStatus } from '../subscription/subscription.entity';
import type { CheckoutOffer, StartedCheckout } from './checkout.service';

export class CheckoutConfigDto {
  @ApiProperty({ description: 'Whether processor checkout is configured and active.' })
  enabled!: boolean;
  @ApiProperty({ example: 24900 }) lease_cents!: number;
  @ApiProperty({ example: 5000 }) monthly_cents!: number;
  @ApiProperty({ example: 'usd' }) currency!: string;

  static from(offer: CheckoutOffer): CheckoutConfigDto {
    return {
      enabled: offer.enabled,
      lease_cents: offer.leaseCents,
      monthly_cents: offer.monthlyCents,
      currency: offer.currency,
    };
  }
}

export class CheckoutResponseDto {
  @ApiProperty({ example: true }) ok!: true;
  @ApiProperty({ format: 'uuid' }) subscription_id!: string;
  @ApiProperty({ example: 'https://checkout.stripe.com/c/pay/cs_test_…' }) checkout_url!: string;
  @ApiProperty({ example: 24900 }) lease_cents!: number;
  @ApiProperty({ example: 5000 }) monthly_cents!: number;
  @ApiProperty({ example: 'usd' }) currency!: string;

  static from({ subscription, checkoutUrl }: StartedCheckout): CheckoutResponseDto {
    return {
      ok: true,
      subscription_id: subscription.id,
      checkout_url: checkoutUrl,
      lease_cents: subscription.leaseCents,
      monthly_cents: subscription.monthlyCents,
      currency: subscription.currency,
    };
  }
}

export class CheckoutStatusQueryDto {
  @ApiProperty({ example: 'cs_test_a1b2c3', description: 'The `session_id` of the success URL' })
  @IsString()
  @MaxLength(255)
  @Matches(/^cs_[A-Za-z0-9_]+$/, { message: 'session_id must be a checkout session id (cs_...)' })
  session_id!: string;
}

export class CheckoutStatusDto {
  @ApiProperty({ enum: SUBSCRIPTION_STATUSES, example: 'paid' })
  status!: SubscriptionStatus;

  static from(status: SubscriptionStatus): CheckoutStatusDto {
    return { status };
  }
}
