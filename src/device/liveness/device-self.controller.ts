import { Body, Controller, Get, HttpCode, HttpStatus, Post } from '@nestjs/common';
import { ApiNoContentResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiJsonBody } from '../../common/openapi/api-problems.decorator';
import { CurrentDevice } from '../tokens/current-device.decorator';
import { DeviceAuth } from '../tokens/device-bearer.guard';
import { DeviceSelfDto } from '../registry/device-view.dto';
import { Device } from '../device.entity';
import { DevicePresence } from './device-presence.service';
import { HeartbeatDto } from './heartbeat.dto';

/** Device-scoped operations: bearer token only. */
@ApiTags('device-scoped')
@Controller('api/device/v1')
@DeviceAuth()
export class DeviceSelfController {
  constructor(private readonly presence: DevicePresence) {}

  @Get('self')
  @ApiOperation({ operationId: 'getDeviceSelf', summary: "The calling device's own record" })
  @ApiOkResponse({ type: DeviceSelfDto })
  self(@CurrentDevice() device: Device): DeviceSelfDto {
    return DeviceSelfDto.from(device);
  }

  @Post('heartbeat')
  @HttpCode(HttpStatus.NO_CONTENT)
  @ApiOperation({
    operationId: 'recordHeartbeat',
    summary: 'Report in; stamps last_seen_at and stores what the device reports',
    description:
      'Also the liveness contact: a device reported offline is back (`device.online`), a battery ' +
      'under the mark sends `device.battery_low` once (docs/devices.md, "Liveness").',
  })
  @ApiNoContentResponse({ description: 'Recorded' })
  @ApiJsonBody()
  heartbeat(@CurrentDevice() device: Device, @Body() body: HeartbeatDto): Promise<void> {
    return this.presence.contact(device.id, {
      firmwareVersion: body.firmware_version,
      batteryPct: body.battery_pct,
    });
  }
}
