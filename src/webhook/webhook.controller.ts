import { Controller, Headers, HttpCode, Post, Req } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiHeader,
  ApiInternalServerErrorResponse,
  ApiOkResponse,
  ApiOperation,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { WEBHOOK_PATH } from '../app.setup';
import type { RawBodyRequest } from '../common/http/body-parsers';
import { WebhookAck, WebhookService } from './webhook.service';

@ApiTags('payment processor')
@Controller()
export class WebhookController {
  constructor(private readonly webhooks: WebhookService) {}

  @Post(WEBHOOK_PATH)
  @HttpCode(200)
  @ApiOperation({ summary: 'Signed events from the payment processor' })
  @ApiHeader({ name: 'Stripe-Signature', required: true })
  @ApiOkResponse({ schema: { example: { received: true } } })
  @ApiBadRequestResponse({ description: 'invalid_signature' })
  @ApiServiceUnavailableResponse({ description: 'webhook_not_configured' })
  @ApiInternalServerErrorResponse({ description: 'the event could not be stored; retried later' })
  receive(
    @Req() req: RawBodyRequest,
    @Headers('stripe-signature') signature?: string,
  ): Promise<WebhookAck> {
    return this.webhooks.receive(req.rawBody, signature);
  }
}
