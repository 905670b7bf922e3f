import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { mapPage, type Page } from '../../common/pagination/page';
import { Device, DEVICE_STATUSES, type DeviceStatus } from '../device.entity';
import type { DeviceListRow } from './device.service';
import { DEVICE_HEALTHS, type DeviceHealth } from '../liveness/device-liveness.sql';
import type { DeviceSummary } from '../liveness/device-summary.service';

/** One item of the org's device list (docs/devices.md). */
export class DeviceItemDto {
  @ApiProperty({ example: 'sensor-0042' }) device_id!: string;
  @ApiProperty({ example: 'hub-2' }) model!: string;
  @ApiProperty({ example: 'acme' }) provider!: string;
  @ApiProperty({ enum: DEVICE_STATUSES }) status!: DeviceStatus;
  @ApiProperty({ type: String, nullable: true, description: 'Last heartbeat (ISO 8601)' })
  last_seen_at!: string | null;
  @ApiProperty({ description: 'ISO 8601' }) created_at!: string;

  static from(d: Device): DeviceItemDto {
    return {
      device_id: d.deviceId,
      model: d.model,
      provider: d.provider,
      status: d.status,
      last_seen_at: d.lastSeenAt ? d.lastSeenAt.toISOString() : null,
      created_at: d.createdAt.toISOString(),
    };
  }
}

/** An item of the list: the device and its health at the time of the request (docs/devices.md). */
export class DeviceListItemDto extends DeviceItemDto {
  @ApiProperty({
    enum: DEVICE_HEALTHS,
    description:
      'never_seen before its first heartbeat or token; offline once it has been quiet ' +
      "longer than its organization's `device_offline_after_seconds`",
  })
  health!: DeviceHealth;
  @ApiProperty({
    type: Number,
    nullable: true,
    description: 'Battery charge (0-100) of the last heartbeat that reported one',
  })
  battery_pct!: number | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Firmware of the last heartbeat that reported one',
  })
  firmware_version!: string | null;
}

export class DeviceListDto {
  @ApiProperty({ type: [DeviceListItemDto] }) items!: DeviceListItemDto[];
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'Pass as `cursor` for the next page; null on the last page',
  })
  next_cursor!: string | null;

  /** The rows carry their times as text already (device.service.ts): nothing to convert. */
  static from(page: Page<DeviceListRow>): DeviceListDto {
    return mapPage(page, (d) => ({
      device_id: d.deviceId,
      model: d.model,
      provider: d.provider,
      status: d.status,
      last_seen_at: d.lastSeenAt,
      created_at: d.createdAt,
      health: d.health,
      battery_pct: d.batteryPct,
      firmware_version: d.firmwareVersion,
    }));
  }
}

/** One device as registration and key rotation answer: the item and its key's thumbprint only. */
export class DeviceRecordDto extends DeviceItemDto {
  @ApiProperty({
    type: String,
    nullable: true,
    description: 'RFC 7638 thumbprint (SHA-256) of the registered public key; null: no key',
  })
  public_key_thumbprint!: string | null;

  static override from(d: Device): DeviceRecordDto {
    return { ...DeviceItemDto.from(d), public_key_thumbprint: d.publicKeyThumbprint };
  }
}

/** The device's own record, as the device sees it. */
export class DeviceSelfDto extends DeviceRecordDto {
  @ApiProperty({ format: 'uuid' }) org_id!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) firmware_version!: string | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) battery_pct!: number | null;

  static override from(d: Device): DeviceSelfDto {
    return {
      ...DeviceRecordDto.from(d),
      org_id: d.orgId,
      firmware_version: d.firmwareVersion,
      battery_pct: d.batteryPct,
    };
  }
}

/** The organization's active devices by health, and those with a low battery (docs/devices.md). */
export class DeviceSummaryDto {
  @ApiProperty({ minimum: 0, example: 41, description: 'Active devices heard from in time' })
  online!: number;
  @ApiProperty({ minimum: 0, example: 3, description: 'Active devices quiet past the threshold' })
  offline!: number;
  @ApiProperty({ minimum: 0, example: 7, description: 'Active devices never heard from' })
  never_seen!: number;
  @ApiProperty({
    minimum: 0,
    example: 2,
    description: 'Active devices whose last reported battery is under DEVICE_BATTERY_LOW_PCT',
  })
  battery_low!: number;

  static from(s: DeviceSummary): DeviceSummaryDto {
    return {
      online: s.online,
      offline: s.offline,
      never_seen: s.neverSeen,
      battery_low: s.batteryLow,
    };
  }
}
