import { Body, Controller, Header, HttpCode, HttpStatus, Post } from '@nestjs/common';
import {
  ApiBadRequestResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
  ApiUnauthorizedResponse,
} from '@nestjs/swagger';
import { RateLimit } from '../common/throttling/rate-limit.guard';
import { DeviceAuthDto, DeviceTokenDto } from './device-auth.dto';
import { DeviceTokenService } from './device-token.service';

@ApiTags('devices')
@Controller('auth/device')
export class DeviceAuthController {
  constructor(private readonly tokens: DeviceTokenService) {}

  @Post()
  @HttpCode(HttpStatus.OK)
  @Header('Cache-Control', 'no-store')
  @RateLimit('deviceAuthPerMinute', ['ip', 'body.device_id'])
  @ApiOperation({ summary: 'Exchange a registered device identity for a short-lived bearer token' })
  @ApiOkResponse({ type: DeviceTokenDto })
  @ApiBadRequestResponse({ description: 'validation_failed: a field is missing or malformed' })
  @ApiUnauthorizedResponse({
    description: 'invalid_device: unknown, deactivated or mismatching device (one answer)',
  })
  issue(@Body() body: DeviceAuthDto): Promise<DeviceTokenDto> {
    return this.tokens.issue(body);
  }
}
