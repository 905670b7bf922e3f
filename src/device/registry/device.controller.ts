import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Put,
  Query,
} from '@nestjs/common';
import {
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { ApiCookieWrite, ApiProblems } from '../../common/openapi/api-problems.decorator';
import type { AuthUser } from '../../common/auth/auth-user';
import { Auth } from '../../common/auth/auth.decorator';
import { CurrentUser } from '../../common/auth/current-user.decorator';
import { CreateDeviceDto } from './create-device.dto';
import { SetDevicePublicKeyDto } from './device-public-key.dto';
import { DeviceListDto, DeviceRecordDto, DeviceSummaryDto } from './device-view.dto';
import { DeviceService } from './device.service';
import { DeviceBatch } from '../batch/device-batch.service';
import { DeviceBatchResultDto, RegisterDevicesDto } from '../batch/device-batch.dto';
import { ListDevicesDto } from './list-devices.dto';
import { DeviceSummaryService } from '../liveness/device-summary.service';

/** The organization's devices, for signed-in people (session cookie only). */
@ApiTags('devices')
@Controller('api/v1/devices')
export class DeviceController {
  constructor(
    private readonly devices: DeviceService,
    private readonly batch: DeviceBatch,
    private readonly summaries: DeviceSummaryService,
  ) {}

  @Get()
  @Auth()
  @ApiOperation({
    operationId: 'listDevices',
    summary: "The session's organization's devices, in device_id order",
  })
  @ApiOkResponse({ type: DeviceListDto })
  @ApiProblems(ErrorCode.ValidationFailed)
  async list(
    @CurrentUser() user: AuthUser,
    @Query() query: ListDevicesDto,
  ): Promise<DeviceListDto> {
    return DeviceListDto.from(await this.devices.list(user.orgId, query));
  }

  @Get('summary')
  @Auth()
  @ApiOperation({
    operationId: 'getDeviceSummary',
    summary: "How many of the session's organization's active devices are in each health",
    description:
      'Health as the list works it out, at the time of the request; `battery_low`: the last ' +
      'reported battery is under `DEVICE_BATTERY_LOW_PCT`. Deactivated devices are not counted.',
  })
  @ApiOkResponse({ type: DeviceSummaryDto })
  async summary(@CurrentUser() user: AuthUser): Promise<DeviceSummaryDto> {
    return DeviceSummaryDto.from(await this.summaries.of(user.orgId));
  }

  @Post()
  @Auth({ role: 'admin' })
  @ApiOperation({
    operationId: 'registerDevice',
    summary: "Register a device in the administrator's organization",
  })
  @ApiCreatedResponse({ type: DeviceRecordDto })
  @ApiCookieWrite()
  @ApiProblems(ErrorCode.DeviceExists)
  async create(
    @CurrentUser() user: AuthUser,
    @Body() body: CreateDeviceDto,
  ): Promise<DeviceRecordDto> {
    return DeviceRecordDto.from(await this.devices.create(user.orgId, body, { actor: user.id }));
  }

  @Post('batch')
  @Auth({ role: 'admin' })
  @HttpCode(HttpStatus.OK)
  @ApiOperation({
    operationId: 'registerDevices',
    summary: "Register up to 1 000 devices in the administrator's organization, all or nothing",
    description:
      'A device already registered here with the same model and provider is `existing`; with any ' +
      'error row (by `index`) nothing is written. The body may be up to 256 KiB.',
  })
  @ApiOkResponse({ type: DeviceBatchResultDto })
  @ApiCookieWrite()
  registerMany(
    @CurrentUser() user: AuthUser,
    @Body() body: RegisterDevicesDto,
  ): Promise<DeviceBatchResultDto> {
    return this.batch.register(user.orgId, body.devices, { actor: user.id });
  }

  @Put(':device_id/public-key')
  @Auth({ role: 'admin' })
  @ApiOperation({
    operationId: 'setDevicePublicKey',
    summary: "Set or rotate a device's public key; the old key stops working at once",
    description: '`validation_failed` also for a key that is not a usable EC P-256 or Ed25519 key.',
  })
  @ApiOkResponse({ type: DeviceRecordDto })
  @ApiCookieWrite()
  @ApiProblems(ErrorCode.NotFound)
  async setPublicKey(
    @CurrentUser() user: AuthUser,
    @Param('device_id') deviceId: string,
    @Body() body: SetDevicePublicKeyDto,
  ): Promise<DeviceRecordDto> {
    return DeviceRecordDto.from(
      await this.devices.setPublicKey(user.orgId, deviceId, body.public_key, {
        actor: user.id,
      }),
    );
  }

  @Delete(':device_id')
  @Auth({ role: 'admin' })
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    operationId: 'deactivateDevice',
    summary: 'Deactivate a device; its outstanding tokens stop working at once',
  })
  @ApiNoContentResponse({ description: 'Deactivated (also when it already was)' })
  @ApiCookieWrite()
  @ApiProblems(ErrorCode.NotFound)
  deactivate(@CurrentUser() user: AuthUser, @Param('device_id') deviceId: string): Promise<void> {
    return this.devices.deactivate(user.orgId, deviceId, { actor: user.id });
  }
}
