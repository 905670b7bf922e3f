import { applyDecorators, Controller, Get, Param, Query, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Auth } from '../auth/auth.decorator';
import type { AuthUser } from '../auth/auth-user';
import { CurrentUser } from '../auth/current-user.decorator';
import { userActor } from '../audit/audit-event.types';
import { ErrorCode } from '../common/errors/error-code.enum';
import { ApiProblems } from '../common/openapi/api-problems.decorator';
import { FulfilmentGuard } from './fulfilment.guard';
import { ListSubscriptionsDto } from './list-subscriptions.dto';
import { SubscriptionDetailDto, SubscriptionListDto } from './subscription-view.dto';
import { SubscriptionService } from './subscription.service';

/** Signed in (session), then in the fulfilment organization; guards run in this order. */
const FulfilmentOnly = () =>
  applyDecorators(
    Auth(),
    UseGuards(FulfilmentGuard),
    // `forbidden`: not a user of the organization FULFILMENT_ORG_ID.
    ApiProblems(ErrorCode.Forbidden),
  );

/** The operators' view of subscriptions (docs/checkout.md), for those who ship devices. */
@ApiTags('subscriptions')
@Controller('api/v1/subscriptions')
export class SubscriptionsController {
  constructor(private readonly subscriptions: SubscriptionService) {}

  @Get()
  @FulfilmentOnly()
  @ApiOperation({
    operationId: 'listSubscriptions',
    summary: 'Subscriptions, newest first, optionally of one status',
  })
  @ApiOkResponse({ type: SubscriptionListDto })
  @ApiProblems(ErrorCode.ValidationFailed)
  async list(
    @CurrentUser() me: AuthUser,
    @Query() query: ListSubscriptionsDto,
  ): Promise<SubscriptionListDto> {
    return SubscriptionListDto.from(await this.subscriptions.list(query, userActor(me)));
  }

  @Get(':id')
  @FulfilmentOnly()
  @ApiOperation({ operationId: 'getSubscription', summary: 'One subscription with its history' })
  @ApiOkResponse({ type: SubscriptionDetailDto })
  // 400: a path that is not valid percent-encoding; a malformed id is 404 like a missing one.
  @ApiProblems(ErrorCode.ValidationFailed, ErrorCode.NotFound)
  async detail(
    @CurrentUser() me: AuthUser,
    @Param('id') id: string,
  ): Promise<SubscriptionDetailDto> {
    return SubscriptionDetailDto.withHistory(await this.subscriptions.detail(id, userActor(me)));
  }
}
