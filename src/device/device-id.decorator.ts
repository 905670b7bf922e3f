import { applyDecorators } from '@nestjs/common';
import { ApiProperty } from '@nestjs/swagger';
import { IsString, Matches } from 'class-validator';
import { DEVICE_ID_MAX, DEVICE_ID_PATTERN, TEXT_PATTERN } from './device.rules';

/**
 * A device_id field of another feature's DTO (shipping a device: src/subscription), checked by the
 * same rule as registration (device.rules.ts), so an id the registry could never hold is a 400.
 */
export const IsDeviceId = (description: string) =>
  applyDecorators(
    ApiProperty({
      example: 'hub-0042',
      maxLength: DEVICE_ID_MAX,
      pattern: DEVICE_ID_PATTERN.source,
      description,
    }),
    IsString(),
    Matches(DEVICE_ID_PATTERN, {
      message: 'device_id must be canonical: lowercase letters, digits and . _ : - (at most 128)',
    }),
  );

/** The registry's free-text rule (TEXT_PATTERN): printable, no surrounding spaces. */
export const IsDeviceText = (field: string) =>
  Matches(TEXT_PATTERN, { message: `${field} must be printable text without surrounding spaces` });
