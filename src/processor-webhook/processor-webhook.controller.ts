import { Body, Controller, Headers, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiSecurity, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '../common/errors/error-code.enum';
import type { AccessLine } from '../common/logging/access-line';
import { RequestAccessLine } from '../common/logging/access-line';
import { ApiProblems } from '../common/openapi/api-problems.decorator';
import { ProcessorWebhookAck, ProcessorWebhookService } from './processor-webhook.service';

/** The processor posts here; the HTTP setup keeps this path's body raw (and up to 1 MiB). */
export const WEBHOOK_PATH = '/api/payment-processor/webhook';

@ApiTags('payment processor')
@Controller()
export class ProcessorWebhookController {
  constructor(private readonly webhooks: ProcessorWebhookService) {}

  @Post(WEBHOOK_PATH)
  @HttpCode(200)
  @ApiOperation({
    operationId: 'receiveProcessorEvent',
    summary: 'Signed events from the payment processor',
    description:
      '200 also for a duplicate, an event type or product it does not handle. Any non-2xx makes ' +
      'the processor deliver the event again: a 500 means the event could not be stored.',
  })
  @ApiSecurity('stripeSignature')
  @ApiBody({
    description: "The processor's event, exactly as signed (up to 1 MiB)",
    schema: { type: 'object', example: { id: 'evt_123', type: 'checkout.session.completed' } },
  })
  @ApiOkResponse({
    schema: { type: 'object', properties: { received: { type: 'boolean', enum: [true] } } },
    example: { received: true },
  })
  // Raw bytes, parsed only once the signature holds: a signed body that is not JSON is a 400.
  @ApiProblems(
    ErrorCode.InvalidSignature,
    ErrorCode.ValidationFailed,
    ErrorCode.PayloadTooLarge,
    ErrorCode.UnsupportedMediaType,
    ErrorCode.WebhookNotConfigured,
    ErrorCode.InternalError,
  )
  receive(
    // The exact bytes (the body parser keeps this path raw): the signature covers them.
    @Body() body: unknown,
    // What the event did goes on the request's one access line.
    @RequestAccessLine() accessLine: AccessLine,
    @Headers('stripe-signature') signature?: string,
  ): Promise<ProcessorWebhookAck> {
    return this.webhooks.receive(Buffer.isBuffer(body) ? body : undefined, signature, accessLine);
  }
}
