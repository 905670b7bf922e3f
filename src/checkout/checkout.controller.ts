import { Body, Controller, Get, Header, HttpCode, Post, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '../common/errors/error-code.enum';
import { ApiDatabase, ApiJsonBody, ApiProblems } from '../common/openapi/api-problems.decorator';
import { RateLimit } from '../common/throttling/rate-limit.guard';
import {
  CheckoutConfigDto,
  CheckoutResponseDto,
  CheckoutStatusDto,
  CheckoutStatusQueryDto,
} from './checkout-response.dto';
import { CheckoutService } from './checkout.service';
import { CreateCheckoutDto } from './create-checkout.dto';

@ApiTags('checkout')
@Controller('api/lease')
export class CheckoutController {
  constructor(private readonly checkout: CheckoutService) {}

  @Get('checkout-config')
  @ApiOperation({
    operationId: 'getCheckoutConfig',
    summary: 'Whether checkout is available, and its amounts',
  })
  @ApiOkResponse({ type: CheckoutConfigDto })
  config(): CheckoutConfigDto {
    return CheckoutConfigDto.from(this.checkout.offer());
  }

  @Post('checkout')
  @HttpCode(200)
  @RateLimit('checkoutPerMinute')
  @ApiOperation({
    operationId: 'startCheckout',
    summary: 'Store a subscription intent and open a hosted checkout session',
    description:
      '`processor_unavailable`: no answer, a 5xx or a timeout; `processor_rejected`: the ' +
      'processor refused the request for a reason other than the coupon.',
  })
  @ApiOkResponse({ type: CheckoutResponseDto })
  @ApiJsonBody()
  @ApiDatabase()
  @ApiProblems(
    ErrorCode.InvalidCoupon,
    ErrorCode.PhiNotAccepted,
    ErrorCode.ProcessorUnavailable,
    ErrorCode.ProcessorRejected,
    ErrorCode.CheckoutNotConfigured,
  )
  async start(@Body() body: CreateCheckoutDto): Promise<CheckoutResponseDto> {
    return CheckoutResponseDto.from(await this.checkout.start(body));
  }

  @Get('checkout-status')
  @Header('Cache-Control', 'no-store')
  @ApiOperation({
    operationId: 'getCheckoutStatus',
    summary:
      'The status of the subscription behind a hosted checkout session (the success page polls it)',
  })
  @ApiOkResponse({ type: CheckoutStatusDto })
  @ApiDatabase()
  @ApiProblems(ErrorCode.ValidationFailed, ErrorCode.NotFound)
  async status(@Query() query: CheckoutStatusQueryDto): Promise<CheckoutStatusDto> {
    return CheckoutStatusDto.from(await this.checkout.statusOfSession(query.session_id));
  }
}
