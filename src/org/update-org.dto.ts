import { ApiProperty } from '@nestjs/swagger';
import { buildMessage, ValidateBy } from 'class-validator';
import { DEVICE_OFFLINE_AFTER_MAX, DEVICE_OFFLINE_AFTER_MIN } from '../config/device-offline-after';

/**
 * `PATCH /api/v1/org`. The field is required and `null` is its value "back to the default"
 * (contract section 10), so it takes no `@IsOmittable()`: one rule accepts an integer in range or
 * null, and refuses a missing field like any other value.
 */
export class UpdateOrgDto {
  @ApiProperty({
    type: Number,
    nullable: true,
    minimum: DEVICE_OFFLINE_AFTER_MIN,
    maximum: DEVICE_OFFLINE_AFTER_MAX,
    example: 600,
    description:
      "Seconds without a heartbeat or token before this organization's devices count as offline; " +
      'null: the service default (DEVICE_OFFLINE_AFTER_SECONDS)',
  })
  @ValidateBy({
    name: 'offlineAfterSeconds',
    validator: {
      validate: (value: unknown) =>
        value === null ||
        (Number.isInteger(value) &&
          (value as number) >= DEVICE_OFFLINE_AFTER_MIN &&
          (value as number) <= DEVICE_OFFLINE_AFTER_MAX),
      defaultMessage: buildMessage(
        (each) =>
          `${each}$property must be an integer from ${DEVICE_OFFLINE_AFTER_MIN} to ${DEVICE_OFFLINE_AFTER_MAX}, or null`,
      ),
    },
  })
  device_offline_after_seconds!: number | null;
}
