import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, IsArray, IsObject } from 'class-validator';
import { CreateDeviceDto } from '../registry/create-device.dto';

/** At most this many devices in one call, one transaction (contract section 10). */
export const DEVICE_BATCH_MAX = 1000;
/** The batch route's own body limit; every other JSON route keeps 64 KiB (body-parsers.ts). */
export const DEVICE_BATCH_BODY_BYTES = 256 * 1024;
export const DEVICE_BATCH_PATH = '/api/v1/devices/batch';

/**
 * The envelope only: each item is checked by DeviceBatch against CreateDeviceDto itself, so a bad
 * item is an error with its index instead of a 400 for the whole call (a `@ValidateNested` here
 * would refuse the lot). Text the database cannot keep is still the global pipe's 400 naming
 * `devices.N.field`, as on every route (contract section 3).
 */
export class RegisterDevicesDto {
  @ApiProperty({
    type: [CreateDeviceDto],
    maxItems: DEVICE_BATCH_MAX,
    description: 'Each checked as POST /api/v1/devices checks its body; a bad one is an error row',
  })
  @IsArray()
  @ArrayMaxSize(DEVICE_BATCH_MAX)
  @IsObject({ each: true, message: 'each item of devices must be an object' })
  devices!: Record<string, unknown>[];
}

export class DeviceBatchErrorDto {
  @ApiProperty({ description: 'The position of the item in `devices`, from 0', example: 537 })
  index!: number;

  @ApiProperty({ enum: ['validation_failed', 'device_exists'], example: 'device_exists' })
  code!: string;

  @ApiProperty({ example: 'A device with this device_id is already registered.' })
  message!: string;
}

/** What a batch did: with any error, `created` and `existing` are empty and nothing was written. */
export class DeviceBatchResultDto {
  @ApiProperty({ type: [String], description: 'Registered by this call, in batch order' })
  created!: string[];

  @ApiProperty({
    type: [String],
    description: 'Already registered in this organization with the same model and provider',
  })
  existing!: string[];

  @ApiProperty({ type: [DeviceBatchErrorDto] })
  errors!: DeviceBatchErrorDto[];
}
