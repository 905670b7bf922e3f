import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { QueryFailedError, Repository } from 'typeorm';
import { AppException, FieldError } from '../common/errors/app.exception';
import { ErrorCode } from '../common/errors/error-code.enum';
import { OrgService } from '../org/org.service';
import { CreateDeviceDto } from './create-device.dto';
import { decodeDeviceCursor, encodeDeviceCursor } from './device-cursor';
import { DeviceItemDto, DeviceListDto, DeviceSelfDto } from './device-view.dto';
import { Device } from './device.entity';
import { isCanonicalDeviceId, isDeviceText } from './device.rules';

export interface NewDevice {
  deviceId: string;
  model: string;
  provider: string;
}

export interface DevicePage {
  limit: number;
  cursor?: string;
}

export interface HeartbeatReport {
  firmwareVersion?: string;
  batteryPct?: number;
}

const UNIQUE_VIOLATION = '23505';

/** The list's item columns, under the names the row will carry; keyset on (org_id, device_id). */
const LIST_COLUMNS = `SELECT device_id AS "deviceId", model, provider, status,
  last_seen_at AS "lastSeenAt", created_at AS "createdAt" FROM devices`;
const LIST_SQL = `${LIST_COLUMNS} WHERE org_id = $1 ORDER BY device_id ASC LIMIT $2`;
const LIST_AFTER_SQL = `${LIST_COLUMNS} WHERE org_id = $1 AND device_id > $2 ORDER BY device_id ASC LIMIT $3`;
type ListRow = Pick<
  Device,
  'deviceId' | 'model' | 'provider' | 'status' | 'lastSeenAt' | 'createdAt'
>;

/** The device registry: registration, the org's list, deactivation and what devices report. */
@Injectable()
export class DeviceService {
  constructor(
    @InjectRepository(Device) private readonly devices: Repository<Device>,
    private readonly orgs: OrgService,
  ) {}

  async register(orgId: string, input: NewDevice): Promise<Device> {
    assertRegistrable(input);
    const org = await this.orgs.get(orgId);
    try {
      return await this.devices.save(
        this.devices.create({
          orgId: org.id,
          ...input,
          status: 'active',
          lastSeenAt: null,
          firmwareVersion: null,
          batteryPct: null,
          deactivatedAt: null,
        }),
      );
    } catch (err) {
      if (isUniqueViolation(err)) {
        throw new AppException(
          ErrorCode.DeviceExists,
          HttpStatus.CONFLICT,
          'A device with this device_id is already registered.',
        );
      }
      throw err;
    }
  }

  /** Registration through the API: the body as the contract names it, the list item back. */
  async create(orgId: string, body: CreateDeviceDto): Promise<DeviceItemDto> {
    const { device_id: deviceId, model, provider } = body;
    return DeviceService.item(await this.register(orgId, { deviceId, model, provider }));
  }

  /** One page of the org's devices in device_id order; keyset, so pages stay stable under inserts. */
  async list(orgId: string, page: DevicePage): Promise<DeviceListDto> {
    const after = page.cursor === undefined ? undefined : decodeDeviceCursor(page.cursor);
    if (page.cursor !== undefined && after === undefined) {
      throw new AppException(ErrorCode.ValidationFailed, HttpStatus.BAD_REQUEST, 'Bad cursor.', [
        { field: 'cursor', message: 'cursor is not a next_cursor of this list' },
      ]);
    }
    // One extra row tells whether another page follows, without a count. Only the item's columns,
    // as plain rows: hydrating whole entities cost more than the query (see bench/findings.md).
    const rows =
      after === undefined
        ? await this.devices.query<ListRow[]>(LIST_SQL, [orgId, page.limit + 1])
        : await this.devices.query<ListRow[]>(LIST_AFTER_SQL, [orgId, after, page.limit + 1]);
    const items = rows.slice(0, page.limit);
    const more = rows.length > page.limit;
    return {
      items: items.map((d) => DeviceService.item(d)),
      next_cursor: more ? encodeDeviceCursor(items[items.length - 1].deviceId) : null,
    };
  }

  /** Deactivates the org's device, which ends its outstanding tokens at once (the guard rereads it). */
  async deactivate(orgId: string, deviceId: string): Promise<void> {
    const device = await this.findInOrg(orgId, deviceId);
    if (device.status === 'deactivated') return;
    await this.devices.update(
      { id: device.id, status: 'active' },
      { status: 'deactivated', deactivatedAt: () => 'now()' },
    );
  }

  /** The active device a verified token names, or null when it is gone, moved or deactivated. */
  async findActive(deviceId: string, orgId: string): Promise<Device | null> {
    if (!isCanonicalDeviceId(deviceId)) return null;
    return this.devices.findOneBy({ deviceId, orgId, status: 'active' });
  }

  async heartbeat(device: Device, report: HeartbeatReport): Promise<void> {
    await this.devices.update(
      { id: device.id },
      {
        lastSeenAt: () => 'now()',
        ...(report.firmwareVersion === undefined
          ? {}
          : { firmwareVersion: report.firmwareVersion }),
        ...(report.batteryPct === undefined ? {} : { batteryPct: report.batteryPct }),
      },
    );
  }

  private async findInOrg(orgId: string, deviceId: string): Promise<Device> {
    const device = isCanonicalDeviceId(deviceId)
      ? await this.devices.findOneBy({ orgId, deviceId })
      : null;
    // Another org's device answers exactly like a missing one.
    if (!device)
      throw new AppException(ErrorCode.NotFound, HttpStatus.NOT_FOUND, 'No such device.');
    return device;
  }

  static item(d: ListRow): DeviceItemDto {
    return {
      device_id: d.deviceId,
      model: d.model,
      provider: d.provider,
      status: d.status,
      last_seen_at: d.lastSeenAt ? d.lastSeenAt.toISOString() : null,
      created_at: d.createdAt.toISOString(),
    };
  }

  static self(d: Device): DeviceSelfDto {
    return {
      ...DeviceService.item(d),
      org_id: d.orgId,
      firmware_version: d.firmwareVersion,
      battery_pct: d.batteryPct,
    };
  }
}

function assertRegistrable(input: NewDevice): void {
  const errors: FieldError[] = [];
  if (!isCanonicalDeviceId(input.deviceId)) {
    errors.push({
      field: 'device_id',
      message: 'device_id must be canonical: lowercase letters, digits and . _ : - (at most 128)',
    });
  }
  if (!isDeviceText(input.model)) {
    errors.push({ field: 'model', message: 'model must be 1 to 100 printable characters' });
  }
  if (!isDeviceText(input.provider)) {
    errors.push({ field: 'provider', message: 'provider must be 1 to 100 printable characters' });
  }
  if (errors.length > 0) {
    throw new AppException(
      ErrorCode.ValidationFailed,
      HttpStatus.BAD_REQUEST,
      'The device is not valid; see errors for each field.',
      errors,
    );
  }
}

function isUniqueViolation(err: unknown): boolean {
  if (!(err instanceof QueryFailedError)) return false;
  const driverError: unknown = err.driverError;
  return (driverError as { code?: unknown } | undefined)?.code === UNIQUE_VIOLATION;
}
