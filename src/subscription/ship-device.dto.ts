import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { IsOmittable } from '../common/validation/omittable.decorator';
import { MaxStoredLength } from '../common/validation/stored-length';
import { DEVICE_ID_MAX, DEVICE_ID_PATTERN, TEXT_PATTERN } from '../device/device.rules';

/** At most what `subscriptions.device_carrier` holds; the tracking number likewise (sealed). */
export const SHIPPING_TEXT_MAX = 100;

/** `PUT /api/v1/subscriptions/{id}/device` and `subscription:ship` (contract section 10). */
export class ShipDeviceDto {
  @ApiProperty({
    example: 'hub-0042',
    maxLength: DEVICE_ID_MAX,
    pattern: DEVICE_ID_PATTERN.source,
    description: 'An active device of the fulfilment organization no other live record holds',
  })
  @IsString()
  @Matches(DEVICE_ID_PATTERN, {
    message: 'device_id must be canonical: lowercase letters, digits and . _ : - (at most 128)',
  })
  device_id!: string;

  @ApiPropertyOptional({ example: 'UPS', maxLength: SHIPPING_TEXT_MAX })
  @IsOmittable()
  @IsString()
  @MaxStoredLength(SHIPPING_TEXT_MAX)
  @Matches(TEXT_PATTERN, { message: 'carrier must be printable text without surrounding spaces' })
  carrier?: string;

  @ApiPropertyOptional({
    example: '1Z999AA10123456784',
    maxLength: SHIPPING_TEXT_MAX,
    description: 'Personal data (it locates a home at the carrier): stored sealed',
  })
  @IsOmittable()
  @IsString()
  @MaxStoredLength(SHIPPING_TEXT_MAX)
  @Matches(TEXT_PATTERN, {
    message: 'tracking_number must be printable text without surrounding spaces',
  })
  tracking_number?: string;
}
