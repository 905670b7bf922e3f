import {
  applyDecorators,
  Body,
  Controller,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Put,
  Query,
  UseGuards,
} from '@nestjs/common';
import { ApiBody, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { userActor } from '../audit/audit-event.types';
import type { AuthUser, Role } from '../common/auth/auth-user';
import { Auth } from '../common/auth/auth.decorator';
import { CurrentUser } from '../common/auth/current-user.decorator';
import { ErrorCode } from '../common/errors/error-code.enum';
import { ApiCookieWrite, ApiProblems } from '../common/openapi/api-problems.decorator';
import { FulfilmentGuard } from './fulfilment.guard';
import { ListSubscriptionsDto, subscriptionPage } from './list-subscriptions.dto';
import {
  SubscriptionDetailDto,
  SubscriptionExportDto,
  SubscriptionListDto,
  SubscriptionRecordDto,
} from './subscription-view.dto';
import { SubscriptionService } from './subscription.service';
import { SubscriptionErasure } from './care-data/subscription-erasure.service';
import { SubscriptionExporter } from './care-data/subscription-exporter.service';
import { EraseSubscriptionDto } from './care-data/erase-subscription.dto';
import { ShipDeviceDto } from './shipping/ship-device.dto';
import { SubscriptionShipping } from './shipping/subscription-shipping.service';
import { NoStore } from '../common/http/no-store.decorator';
import { PageQueryDto } from '../common/pagination/page-query.dto';
import { ShippableDevicePageDto } from './shipping/shippable-devices.dto';
import { ShippableDevices } from './shipping/shippable-devices.service';

/**
 * Signed in (session), with `role` (admin: erasure and export), then in the fulfilment
 * organization; guards run in this order.
 */
const FulfilmentOnly = (role: Role = 'member') =>
  applyDecorators(
    Auth({ role }),
    UseGuards(FulfilmentGuard),
    // `forbidden`: not a user of the organization FULFILMENT_ORG_ID.
    ApiProblems(ErrorCode.Forbidden),
  );

/** The operators' view of subscriptions (docs/checkout.md), for those who ship devices. */
@ApiTags('subscriptions')
@Controller('api/v1/subscriptions')
export class SubscriptionsController {
  constructor(
    private readonly subscriptions: SubscriptionService,
    private readonly erasure: SubscriptionErasure,
    private readonly exporter: SubscriptionExporter,
    private readonly shipping: SubscriptionShipping,
    private readonly shippable: ShippableDevices,
  ) {}

  // Before `:id`, which would take the path's last part as an id. Device ids and models only: no
  // personal data, so not declared no-store (the API's default header still says so).
  @Get('shippable-devices')
  @FulfilmentOnly()
  @ApiOperation({
    operationId: 'listShippableDevices',
    summary: "Devices a record's Ship device may pick: active, held by no live record",
  })
  @ApiOkResponse({ type: ShippableDevicePageDto })
  @ApiProblems(ErrorCode.ValidationFailed)
  async shippableDevices(@Query() query: PageQueryDto): Promise<ShippableDevicePageDto> {
    return ShippableDevicePageDto.from(await this.shippable.list(query));
  }

  @Get()
  @FulfilmentOnly()
  @NoStore()
  @ApiOperation({
    operationId: 'listSubscriptions',
    summary: 'Subscriptions, newest first, optionally of one status or awaiting a device',
  })
  @ApiOkResponse({ type: SubscriptionListDto })
  @ApiProblems(ErrorCode.ValidationFailed)
  async list(
    @CurrentUser() me: AuthUser,
    @Query() query: ListSubscriptionsDto,
  ): Promise<SubscriptionListDto> {
    const page = subscriptionPage(query);
    return SubscriptionListDto.from(await this.subscriptions.list(page, userActor(me)));
  }

  @Get(':id')
  @FulfilmentOnly()
  @NoStore()
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

  @Post(':id/erase')
  @FulfilmentOnly('admin')
  @NoStore()
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'eraseSubscription',
    summary: 'Erase its personal data (not while paid or past_due); again: the same record',
    description:
      "A pending record's hosted checkout is expired at the processor first: a checkout already " +
      'completed there is `409 conflict`, a processor out of reach `502 processor_unavailable` ' +
      '(nothing erased). The body is empty or absent; any field is `400 validation_failed`.',
  })
  @ApiBody({ type: EraseSubscriptionDto, required: false })
  @ApiOkResponse({ type: SubscriptionRecordDto })
  @ApiCookieWrite()
  // 409: still billed (paid, past_due), or its checkout completed at the processor.
  @ApiProblems(
    ErrorCode.ValidationFailed,
    ErrorCode.NotFound,
    ErrorCode.Conflict,
    ErrorCode.ProcessorUnavailable,
  )
  async erase(
    @CurrentUser() me: AuthUser,
    @Param('id') id: string,
    // Validated only: it has no fields (erase-subscription.dto.ts).
    @Body() _body: EraseSubscriptionDto,
  ): Promise<SubscriptionRecordDto> {
    return SubscriptionRecordDto.from(await this.erasure.erase(id, userActor(me)));
  }

  @Put(':id/device')
  @FulfilmentOnly()
  @NoStore()
  @ApiOperation({
    operationId: 'shipSubscriptionDevice',
    summary: 'Assign the device shipped (another device: a replacement unit); again: no change',
  })
  @ApiOkResponse({ type: SubscriptionRecordDto })
  @ApiCookieWrite()
  // 404: no such record, or no such device in the fulfilment organization; 409: the record is not
  // paid or past_due, the device is deactivated, or another live record holds it.
  @ApiProblems(ErrorCode.ValidationFailed, ErrorCode.NotFound, ErrorCode.Conflict)
  async ship(
    @CurrentUser() me: AuthUser,
    @Param('id') id: string,
    @Body() body: ShipDeviceDto,
  ): Promise<SubscriptionRecordDto> {
    return SubscriptionRecordDto.from(await this.shipping.ship(id, body, userActor(me)));
  }

  @Get(':id/export')
  @FulfilmentOnly('admin')
  @NoStore()
  @ApiOperation({
    operationId: 'exportSubscription',
    summary: 'What is held about it: the record, its history, its deliveries, who looked',
  })
  @ApiOkResponse({ type: SubscriptionExportDto })
  @ApiProblems(ErrorCode.ValidationFailed, ErrorCode.NotFound)
  async export(
    @CurrentUser() me: AuthUser,
    @Param('id') id: string,
  ): Promise<SubscriptionExportDto> {
    return SubscriptionExportDto.from(await this.exporter.export(id, userActor(me)));
  }
}
