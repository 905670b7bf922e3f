import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsInt, IsString, Matches, Max, Min } from 'class-validator';
import { MaxStoredLength } from '../../common/validation/stored-length';
import { IsOmittable } from '../../common/validation/omittable.decorator';
import { FIRMWARE_VERSION_MAX, TEXT_PATTERN } from '../device.rules';

export class HeartbeatDto {
  @ApiPropertyOptional({ example: '2.4.1', maxLength: FIRMWARE_VERSION_MAX })
  @IsOmittable()
  @IsString()
  @MaxStoredLength(FIRMWARE_VERSION_MAX)
  @Matches(TEXT_PATTERN, {
    message: 'firmware_version must be printable text without surrounding spaces',
  })
  firmware_version?: string;

  @ApiPropertyOptional({ minimum: 0, maximum: 100, example: 87 })
  @IsOmittable()
  @IsInt()
  @Min(0)
  @Max(100)
  battery_pct?: number;
}
