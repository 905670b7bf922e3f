import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsNotEmpty, IsString, MaxLength } from 'class-validator';
import { IsOmittable } from '../../common/validation/omittable.decorator';
import type { IssuedDeviceToken } from './device-token.service';
import { DEVICE_ID_MAX, DEVICE_TEXT_MAX } from '../device.rules';

/** Far more than an ES256 or Ed25519 assertion needs (a few hundred characters). */
const ASSERTION_MAX = 4096;

/**
 * The device's claim of identity. Only the shape is checked here: any well-formed value that does
 * not match a registered, active device gets the one `invalid_device` answer.
 */
export class DeviceAuthDto {
  @ApiProperty({ example: 'sensor-0042', maxLength: DEVICE_ID_MAX })
  @IsString()
  @IsNotEmpty()
  @MaxLength(DEVICE_ID_MAX)
  device_id!: string;

  @ApiProperty({ example: 'hub-2', maxLength: DEVICE_TEXT_MAX })
  @IsString()
  @IsNotEmpty()
  @MaxLength(DEVICE_TEXT_MAX)
  model!: string;

  @ApiProperty({ example: 'acme', maxLength: DEVICE_TEXT_MAX })
  @IsString()
  @IsNotEmpty()
  @MaxLength(DEVICE_TEXT_MAX)
  provider!: string;

  @ApiPropertyOptional({
    description:
      'Required for a device with a registered key: a JWT signed with its private key, `iss` = `sub` = device_id, `aud` = `{base_url}/auth/device`, `exp` at most 5 minutes ahead, a `jti` used once',
    maxLength: ASSERTION_MAX,
  })
  @IsOmittable()
  @IsString()
  @IsNotEmpty()
  @MaxLength(ASSERTION_MAX)
  assertion?: string;
}

/** The short-lived bearer token (docs/devices.md). */
export class DeviceTokenDto {
  @ApiProperty({ description: 'JWT for `Authorization: Bearer`' })
  access_token!: string;

  @ApiProperty({ enum: ['Bearer'] })
  token_type!: 'Bearer';

  @ApiProperty({ description: 'Seconds until the token expires', example: 900 })
  expires_in!: number;

  @ApiProperty({ description: 'When the token expires (ISO 8601); refresh before this' })
  expires_at!: string;

  static from(issued: IssuedDeviceToken): DeviceTokenDto {
    return {
      access_token: issued.token,
      token_type: 'Bearer',
      expires_in: issued.ttlSeconds,
      expires_at: issued.expiresAt.toISOString(),
    };
  }
}
