import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
  Query,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthUser } from '../../common/auth/auth-user';
import { Auth } from '../../common/auth/auth.decorator';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { ApiCookieWrite, ApiProblems } from '../../common/openapi/api-problems.decorator';
import { WebhookDeliveryService } from '../delivery/webhook-delivery.service';
import {
  CreateWebhookEndpointDto,
  ListDeliveriesDto,
  UpdateWebhookEndpointDto,
  WebhookDeliveryListDto,
  WebhookEndpointCreatedDto,
  WebhookEndpointDto,
  WebhookEndpointListDto,
  WebhookEventIdDto,
  WebhookSecretDto,
} from './webhook-endpoint.dto';
import { WebhookEndpointService } from './webhook-endpoint.service';
import { NoStore } from '../../common/http/no-store.decorator';

/** An organization's outgoing webhook endpoints (docs/outgoing-webhooks.md); admins only. */
@ApiTags('webhook-endpoints')
@NoStore()
@Controller('api/v1/webhook-endpoints')
export class WebhookEndpointController {
  constructor(
    private readonly endpoints: WebhookEndpointService,
    private readonly deliveries: WebhookDeliveryService,
  ) {}

  @Post()
  @Auth({ role: 'admin' })
  @ApiOperation({ operationId: 'createWebhookEndpoint', summary: 'Register an endpoint' })
  @ApiCreatedResponse({ type: WebhookEndpointCreatedDto })
  @ApiCookieWrite()
  @ApiProblems(ErrorCode.WebhookUrlRefused, ErrorCode.LimitReached)
  async create(
    @CurrentUser() user: AuthUser,
    @Body() body: CreateWebhookEndpointDto,
  ): Promise<WebhookEndpointCreatedDto> {
    return WebhookEndpointCreatedDto.withSecret(
      await this.endpoints.create(user.orgId, body, user.id),
    );
  }

  @Get()
  @Auth({ role: 'admin' })
  @ApiOperation({ operationId: 'listWebhookEndpoints', summary: "The organization's endpoints" })
  @ApiOkResponse({ type: WebhookEndpointListDto })
  async list(@CurrentUser() user: AuthUser): Promise<WebhookEndpointListDto> {
    return WebhookEndpointListDto.from(await this.endpoints.list(user.orgId));
  }

  @Get(':id')
  @Auth({ role: 'admin' })
  @ApiOperation({ operationId: 'getWebhookEndpoint', summary: 'One endpoint (never its secret)' })
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiProblems(ErrorCode.NotFound, ErrorCode.ValidationFailed)
  async get(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<WebhookEndpointDto> {
    return WebhookEndpointDto.from(await this.endpoints.get(user.orgId, id));
  }

  @Patch(':id')
  @Auth({ role: 'admin' })
  @ApiOperation({ operationId: 'updateWebhookEndpoint', summary: 'Change or enable/disable' })
  @ApiOkResponse({ type: WebhookEndpointDto })
  @ApiCookieWrite()
  @ApiProblems(ErrorCode.NotFound, ErrorCode.WebhookUrlRefused)
  async update(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Body() body: UpdateWebhookEndpointDto,
  ): Promise<WebhookEndpointDto> {
    return WebhookEndpointDto.from(await this.endpoints.update(user.orgId, id, body, user.id));
  }

  @Delete(':id')
  @Auth({ role: 'admin' })
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ operationId: 'deleteWebhookEndpoint', summary: 'Delete an endpoint' })
  @ApiNoContentResponse({ description: 'Deleted' })
  @ApiCookieWrite()
  @ApiProblems(ErrorCode.NotFound)
  remove(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<void> {
    return this.endpoints.remove(user.orgId, id, user.id);
  }

  @Post(':id/rotate-secret')
  @Auth({ role: 'admin' })
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'rotateWebhookSecret',
    summary: 'A new secret; the previous one keeps signing for 24 hours',
  })
  @ApiOkResponse({ type: WebhookSecretDto })
  @ApiCookieWrite()
  @ApiProblems(ErrorCode.NotFound)
  async rotate(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<WebhookSecretDto> {
    return WebhookSecretDto.from(await this.endpoints.rotateSecret(user.orgId, id, user.id));
  }

  @Post(':id/test')
  @Auth({ role: 'admin' })
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({
    operationId: 'testWebhookEndpoint',
    summary: 'Send a webhook.test to this endpoint, also while it is disabled',
  })
  @ApiAcceptedResponse({ type: WebhookEventIdDto })
  @ApiCookieWrite()
  @ApiProblems(ErrorCode.NotFound)
  async test(@CurrentUser() user: AuthUser, @Param('id') id: string): Promise<WebhookEventIdDto> {
    return WebhookEventIdDto.from(await this.endpoints.sendTest(user.orgId, id));
  }

  @Get(':id/deliveries')
  @Auth({ role: 'admin' })
  @ApiOperation({ operationId: 'listWebhookDeliveries', summary: 'Deliveries, newest first' })
  @ApiOkResponse({ type: WebhookDeliveryListDto })
  @ApiProblems(ErrorCode.NotFound, ErrorCode.ValidationFailed)
  async listDeliveries(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Query() query: ListDeliveriesDto,
  ): Promise<WebhookDeliveryListDto> {
    return WebhookDeliveryListDto.from(await this.deliveries.list(user.orgId, id, query));
  }

  @Post(':id/deliveries/:event_id/retry')
  @Auth({ role: 'admin' })
  @HttpCode(HttpStatus.ACCEPTED)
  @ApiOperation({
    operationId: 'retryWebhookDelivery',
    summary: 'A new attempt now, also for a failed delivery (409 while the endpoint is disabled)',
  })
  @ApiAcceptedResponse({ type: WebhookEventIdDto })
  @ApiCookieWrite()
  @ApiProblems(ErrorCode.NotFound, ErrorCode.Conflict)
  async retry(
    @CurrentUser() user: AuthUser,
    @Param('id') id: string,
    @Param('event_id') eventId: string,
  ): Promise<WebhookEventIdDto> {
    return WebhookEventIdDto.from(await this.deliveries.retry(user.orgId, id, eventId));
  }
}
