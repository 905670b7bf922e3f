import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn } from 'class-validator';
import { PageQueryDto } from '../../common/pagination/page-query.dto';
import { IsOmittable } from '../../common/validation/omittable.decorator';
import { DEVICE_HEALTHS, type DeviceHealth } from '../liveness/device-liveness.sql';

/** The org's device list: the page parameters, and the health its items must have. */
export class ListDevicesDto extends PageQueryDto {
  @ApiPropertyOptional({ enum: DEVICE_HEALTHS, description: 'Only devices in this health' })
  @IsOmittable()
  @IsIn(DEVICE_HEALTHS)
  health?: DeviceHealth;
}
