import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Post,
  Query,
} from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import type { AuthUser } from '../auth/auth-user';
import { Auth } from '../auth/auth.decorator';
import { CurrentUser } from '../auth/current-user.decorator';
import { CreateDeviceDto } from './create-device.dto';
import { DeviceItemDto, DeviceListDto } from './device-view.dto';
import { DeviceService } from './device.service';
import { ListDevicesDto } from './list-devices.dto';

/** The organization's devices, for signed-in people (session cookie only). */
@ApiTags('devices')
@Controller('api/v1/devices')
export class DeviceController {
  constructor(private readonly devices: DeviceService) {}

  @Get()
  @Auth()
  @ApiOperation({ summary: "The session's organization's devices, in device_id order" })
  @ApiOkResponse({ type: DeviceListDto })
  @ApiBadRequestResponse({ description: '`validation_failed`: bad limit or cursor' })
  list(@CurrentUser() user: AuthUser, @Query() query: ListDevicesDto): Promise<DeviceListDto> {
    return this.devices.list(user.orgId, query);
  }

  @Post()
  @Auth({ role: 'admin' })
  @ApiOperation({ summary: "Register a device in the administrator's organization" })
  @ApiCreatedResponse({ type: DeviceItemDto })
  @ApiConflictResponse({ description: '`device_exists`: the device_id is already registered' })
  create(@CurrentUser() user: AuthUser, @Body() body: CreateDeviceDto): Promise<DeviceItemDto> {
    return this.devices.create(user.orgId, body);
  }

  @Delete(':device_id')
  @Auth({ role: 'admin' })
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({ summary: 'Deactivate a device; its outstanding tokens stop working at once' })
  @ApiNoContentResponse({ description: 'Deactivated (also when it already was)' })
  @ApiNotFoundResponse({ description: '`not_found`: no such device in your organization' })
  deactivate(@CurrentUser() user: AuthUser, @Param('device_id') deviceId: string): Promise<void> {
    return this.devices.deactivate(user.orgId, deviceId);
  }
}
