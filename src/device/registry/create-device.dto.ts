import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import { IsObject, IsString, Matches, ValidateNested } from 'class-validator';
import { MaxStoredLength } from '../../common/validation/stored-length';
import { IsOmittable } from '../../common/validation/omittable.decorator';
import { DevicePublicJwkDto } from './device-public-key.dto';
import { DEVICE_ID_MAX, DEVICE_ID_PATTERN, DEVICE_TEXT_MAX, TEXT_PATTERN } from '../device.rules';

export class CreateDeviceDto {
  @ApiProperty({
    example: 'sensor-0042',
    maxLength: DEVICE_ID_MAX,
    pattern: DEVICE_ID_PATTERN.source,
    description: 'Canonical id: lowercase letters, digits and . _ : -',
  })
  @IsString()
  @Matches(DEVICE_ID_PATTERN, {
    message: 'device_id must be canonical: lowercase letters, digits and . _ : - (at most 128)',
  })
  device_id!: string;

  @ApiProperty({ example: 'hub-2', maxLength: DEVICE_TEXT_MAX })
  @IsString()
  @MaxStoredLength(DEVICE_TEXT_MAX)
  @Matches(TEXT_PATTERN, { message: 'model must be printable text without surrounding spaces' })
  model!: string;

  @ApiProperty({ example: 'acme', maxLength: DEVICE_TEXT_MAX })
  @IsString()
  @MaxStoredLength(DEVICE_TEXT_MAX)
  @Matches(TEXT_PATTERN, { message: 'provider must be printable text without surrounding spaces' })
  provider!: string;

  @ApiPropertyOptional({
    type: DevicePublicJwkDto,
    description: 'The public key the device signs its assertions with (no private members)',
  })
  @IsOmittable()
  @IsObject()
  @ValidateNested()
  @Type(() => DevicePublicJwkDto)
  public_key?: DevicePublicJwkDto;
}
