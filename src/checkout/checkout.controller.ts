import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import {
  ApiBadGatewayResponse,
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { RateLimit } from '../common/throttling/rate-limit.guard';
import { CheckoutConfigDto, CheckoutResponseDto } from './checkout-response.dto';
import { CheckoutService } from './checkout.service';
import { CreateCheckoutDto } from './create-checkout.dto';

@ApiTags('checkout')
@Controller('api/lease')
export class CheckoutController {
  constructor(private readonly checkout: CheckoutService) {}

  @Get('checkout-config')
  @ApiOperation({ summary: 'Whether checkout is available, and its amounts' })
  @ApiOkResponse({ type: CheckoutConfigDto })
  config(): CheckoutConfigDto {
    return this.checkout.checkoutConfig();
  }

  @Post('checkout')
  @HttpCode(200)
  @RateLimit('checkoutPerMinute')
  @ApiOperation({ summary: 'Store a subscription intent and open a hosted checkout session' })
  @ApiOkResponse({ type: CheckoutResponseDto })
  @ApiBadRequestResponse({ description: 'validation_failed, invalid_coupon or phi_not_accepted' })
  @ApiBadGatewayResponse({ description: 'processor_unavailable' })
  @ApiServiceUnavailableResponse({ description: 'checkout_not_configured' })
  start(@Body() body: CreateCheckoutDto): Promise<CheckoutResponseDto> {
    return this.checkout.start(body);
  }
}
