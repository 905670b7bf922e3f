import { ApiProperty } from '@nestjs/swagger';

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
