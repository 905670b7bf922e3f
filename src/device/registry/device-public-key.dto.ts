import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsDefined,
  IsIn,
  IsNotEmptyObject,
  IsObject,
  IsString,
  Matches,
  MaxLength,
  ValidateNested,
} from 'class-validator';
import { IsOmittable } from '../../common/validation/omittable.decorator';
import type { DevicePublicJwk } from './device-key';
import { TEXT_PATTERN } from '../device.rules';

/** A 32-byte coordinate in unpadded base64url (43 characters). */
const COORDINATE = /^[A-Za-z0-9_-]{43}$/;

/**
 * A device's public key as a JWK: EC P-256 or OKP Ed25519. Only public members are accepted (the
 * global pipe's whitelist refuses any other, `d` included); device-key.ts checks the point itself.
 */
export class DevicePublicJwkDto implements DevicePublicJwk {
  @ApiProperty({ enum: ['EC', 'OKP'] })
  @IsIn(['EC', 'OKP'])
  kty!: string;

  @ApiProperty({ enum: ['P-256', 'Ed25519'] })
  @IsIn(['P-256', 'Ed25519'])
  crv!: string;

  @ApiProperty({ description: 'base64url, 32 bytes' })
  @IsString()
  @Matches(COORDINATE, { message: 'x must be a 32-byte base64url coordinate' })
  x!: string;

  @ApiPropertyOptional({ description: 'base64url, 32 bytes; EC keys only' })
  @IsOmittable()
  @IsString()
  @Matches(COORDINATE, { message: 'y must be a 32-byte base64url coordinate' })
  y?: string;

  @ApiPropertyOptional({ description: 'Defaults to the RFC 7638 thumbprint', maxLength: 128 })
  @IsOmittable()
  @IsString()
  @MaxLength(128)
  @Matches(TEXT_PATTERN, { message: 'kid must be printable text without surrounding spaces' })
  kid?: string;

  @ApiPropertyOptional({ enum: ['ES256', 'EdDSA', 'Ed25519'] })
  @IsOmittable()
  @IsIn(['ES256', 'EdDSA', 'Ed25519'])
  alg?: string;

  @ApiPropertyOptional({ enum: ['sig'] })
  @IsOmittable()
  @IsIn(['sig'])
  use?: string;
}

/** `PUT /api/v1/devices/{device_id}/public-key`. */
export class SetDevicePublicKeyDto {
  @ApiProperty({ type: DevicePublicJwkDto })
  @IsDefined()
  @IsObject()
  @IsNotEmptyObject()
  @ValidateNested()
  @Type(() => DevicePublicJwkDto)
  public_key!: DevicePublicJwkDto;
}
