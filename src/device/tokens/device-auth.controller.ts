import { Body, Controller, Header, HttpCode, HttpStatus, Ip, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { ApiDatabase, ApiJsonBody, ApiProblems } from '../../common/openapi/api-problems.decorator';
import { RateLimit } from '../../common/throttling/rate-limit.guard';
import { DeviceAuthDto, DeviceTokenDto } from './device-auth.dto';
import { DeviceTokenService } from './device-token.service';

@ApiTags('devices')
@Controller('auth/device')
export class DeviceAuthController {
  constructor(private readonly tokens: DeviceTokenService) {}

  @Post()
  @HttpCode(HttpStatus.OK)
  @Header('Cache-Control', 'no-store')
  // Per client address here; per device_id the service counts failed attempts only.
  @RateLimit('deviceAuthPerMinute', ['ip'])
  @ApiOperation({
    operationId: 'issueDeviceToken',
    summary: 'Exchange a registered device identity (and its signed assertion) for a bearer token',
    description:
      '`invalid_device` is one answer for an unknown, deactivated or mismatching device and for a ' +
      'missing or bad assertion. 429 per client address, and per device_id after failures.',
  })
  @ApiOkResponse({ type: DeviceTokenDto })
  @ApiJsonBody()
  @ApiDatabase()
  @ApiProblems(ErrorCode.InvalidDevice)
  issue(@Body() body: DeviceAuthDto, @Ip() address: string): Promise<DeviceTokenDto> {
    return this.tokens.issue(body, address).then((issued) => DeviceTokenDto.from(issued));
  }
}
