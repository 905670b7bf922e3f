import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsString } from 'class-validator';
import { IsOmittable } from '../../common/validation/omittable.decorator';
import { MaxStoredLength } from '../../common/validation/stored-length';
import { IsDeviceId, IsDeviceText } from '../../device/device-id.decorator';

/** At most what `subscriptions.device_carrier` holds; the tracking number likewise (sealed). */
export const SHIPPING_TEXT_MAX = 100;

/** `PUT /api/v1/subscriptions/{id}/device` and `subscription:ship` (contract section 10). */
export class ShipDeviceDto {
  @IsDeviceId('An active device of the fulfilment organization no other live record holds')
  device_id!: string;

  @ApiPropertyOptional({ example: 'UPS', maxLength: SHIPPING_TEXT_MAX })
  @IsOmittable()
  @IsString()
  @MaxStoredLength(SHIPPING_TEXT_MAX)
  @IsDeviceText('carrier')
  carrier?: string;

  @ApiPropertyOptional({
    example: '1Z999AA10123456784',
    maxLength: SHIPPING_TEXT_MAX,
    description: 'Personal data (it locates a home at the carrier): stored sealed',
  })
  @IsOmittable()
  @IsString()
  @MaxStoredLength(SHIPPING_TEXT_MAX)
  @IsDeviceText('tracking_number')
  tracking_number?: string;
}
