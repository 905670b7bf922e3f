import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches, MaxLength } from 'class-validator';
import { SUBSCRIPTION_STATUSES } from '../subscription/subscription.entity';
import type { SubscriptionStatus } from '../subscription/subscription.entity';

export class CheckoutConfigDto {
  @ApiProperty({ description: 'Whether processor checkout is configured and active.' })
  enabled!: boolean;
  @ApiProperty({ example: 24900 }) lease_cents!: number;
  @ApiProperty({ example: 5000 }) monthly_cents!: number;
  @ApiProperty({ example: 'usd' }) currency!: string;
}

export class CheckoutResponseDto {
  @ApiProperty({ example: true }) ok!: true;
  @ApiProperty({ format: 'uuid' }) subscription_id!: string;
  @ApiProperty({ example: 'https://checkout.stripe.com/c/pay/cs_test_…' }) checkout_url!: string;
  @ApiProperty({ example: 24900 }) lease_cents!: number;
  @ApiProperty({ example: 5000 }) monthly_cents!: number;
  @ApiProperty({ example: 'usd' }) currency!: string;
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
}
