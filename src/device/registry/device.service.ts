import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { statementRows } from '../../database/statement-rows';
import { DeviceError } from '../device.error';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { Clock } from '../../common/clock/clock';
import { OrgService } from '../../org/org.service';
import { EventOutbox } from '../../outgoing-webhook/outbox/event-outbox.service';
import { CreateDeviceDto } from './create-device.dto';
import { DeviceAudit } from '../device-audit';
import { keysetPage, PageRequest } from '../../common/pagination/keyset-page';
import { DEVICE_ORDER } from './device-cursor';
import { DeviceKey, deviceKeyFrom, DeviceKeyError, DevicePublicJwk } from './device-key';
import { Page } from '../../common/pagination/page';
import { Device } from '../device.entity';
import { isCanonicalDeviceId } from '../device.rules';
import { columnsAsProperties } from '../../database/columns-as-properties';
import { type DeviceHealth, healthSql, isoText } from '../liveness/device-liveness.sql';
import { deviceEvent } from '../device-events';

/** A device to register, as CreateDeviceDto checked it (the API's pipe, the CLI's dtoFrom). */
export interface NewDevice {
  deviceId: string;
  model: string;
  provider: string;
  /** The public key the device will sign its assertions with. */
  publicKey?: DevicePublicJwk;
}

/** Who changed a device, for its audit line. */
export interface DeviceActor {
  /** A user id, or `cli`. */
  actor: string;
}

/** Each item's health at the Clock's now (`$2`), worked out by PostgreSQL with the row. */
const HEALTH = healthSql('$2');
/** The list's item columns, under the names the row will carry; keyset on (org_id, device_id). */
const LIST_COLUMNS = `SELECT device_id AS "deviceId", model, provider, status,
  ${isoText('last_seen_at')} AS "lastSeenAt", ${isoText('created_at')} AS "createdAt",
  ${HEALTH} AS health, battery_pct AS "batteryPct", firmware_version AS "firmwareVersion"
  FROM devices`;
/** $1 org, $2 now, $3 how many; then the cursor's device_id, the health asked for, when given. */
function listSql(after: boolean, health: boolean): string {
  const where = ['org_id = $1'];
  if (after) where.push(`device_id > $${where.length + 3}`);
  if (health) where.push(`${HEALTH} = $${where.length + 3}`);
  return `${LIST_COLUMNS} WHERE ${where.join(' AND ')} ORDER BY device_id ASC LIMIT $3`;
}
/** The four constant statements, by [cursor given][health asked]. */
const LIST_SQL = [false, true].map((after) => [false, true].map((h) => listSql(after, h)));
const STATUS_IN_ORG_SQL = 'SELECT status FROM devices WHERE device_id = $1 AND org_id = $2 LIMIT 1';
const STATUS_IN_ORG_LOCKED_SQL = `${STATUS_IN_ORG_SQL} FOR SHARE`;
/** A row of the org's list: the item's columns, its times already ISO 8601 text. */
export interface DeviceListRow
  extends Pick<
    Device,
    'deviceId' | 'model' | 'provider' | 'status' | 'batteryPct' | 'firmwareVersion'
  > {
  lastSeenAt: string | null;
  createdAt: string;
  health: DeviceHealth;
}

/** A page of the org's list, and the health its items must have (all when not given). */
export interface DeviceListRequest extends PageRequest {
  health?: DeviceHealth;
}

/** The device registry: registration, the org's list, deactivation and what devices report. */
@Injectable()
export class DeviceService {
  private findActiveSql?: string;

  constructor(
    @InjectRepository(Device) private readonly devices: Repository<Device>,
    private readonly orgs: OrgService,
    private readonly audit: DeviceAudit,
    private readonly clock: Clock,
    private readonly outbox: EventOutbox,
  ) {}

  async register(orgId: string, input: NewDevice, by?: DeviceActor): Promise<Device> {
    const key = input.publicKey ? await validKey(input.publicKey) : undefined;
    const org = await this.orgs.get(orgId);
    // A device_id already taken is the unique index's answer (409 device_exists, database-errors.ts).
    const device = await this.devices.manager.transaction(async (m) => {
      const saved = await m.save(
        this.devices.create({
          orgId: org.id,
          deviceId: input.deviceId,
          model: input.model,
          provider: input.provider,
          publicKey: key?.jwk ?? null,
          publicKeyThumbprint: key?.thumbprint ?? null,
          status: 'active',
          lastSeenAt: null,
          firmwareVersion: null,
          batteryPct: null,
          deactivatedAt: null,
        }),
      );
      await this.outbox.record(m, deviceEvent('device.registered', saved));
      await this.audit.event(m, 'device.registered', saved, by?.actor);
      if (key) await this.keyEvent(m, saved, key, null, by);
      return saved;
    });
    this.audit.changed('device_registered', {
      deviceId: device.deviceId,
      orgId: device.orgId,
      actor: by?.actor ?? 'cli',
    });
    if (key) this.auditKey(device, key, null, by);
    return device;
  }

  /** Registration through the API: the body as the contract names it. */
  create(orgId: string, body: CreateDeviceDto, by: DeviceActor): Promise<Device> {
    const { device_id: deviceId, model, provider, public_key: publicKey } = body;
    return this.register(orgId, { deviceId, model, provider, publicKey }, by);
  }

  /**
   * Sets or replaces the org's device's key. The token endpoint reads the key on every request and
   * the bearer guard compares a token's `cnf.jkt` with it, so the old key stops working at once.
   */
  async setPublicKey(
    orgId: string,
    deviceId: string,
    jwk: DevicePublicJwk,
    by: DeviceActor,
  ): Promise<Device> {
    const key = await validKey(jwk);
    const device = await this.findInOrg(orgId, deviceId);
    const previous = device.publicKeyThumbprint;
    device.publicKey = key.jwk;
    device.publicKeyThumbprint = key.thumbprint;
    await this.devices.manager.transaction(async (m) => {
      await m.update(
        Device,
        { id: device.id },
        { publicKey: key.jwk, publicKeyThumbprint: key.thumbprint },
      );
      await this.outbox.record(m, deviceEvent('device.key_rotated', device));
      await this.keyEvent(m, device, key, previous, by);
    });
    this.auditKey(device, key, previous, by);
    return device;
  }

  private keyEvent(
    m: EntityManager,
    device: Device,
    key: DeviceKey,
    previous: string | null,
    by?: DeviceActor,
  ): Promise<void> {
    const action = previous === null ? 'device.key_registered' : 'device.key_rotated';
    const details = { thumbprint: key.thumbprint, previous_thumbprint: previous };
    return this.audit.event(m, action, device, by?.actor, details);
  }

  private auditKey(device: Device, key: DeviceKey, previous: string | null, by?: DeviceActor) {
    this.audit.keySet({
      deviceId: device.deviceId,
      orgId: device.orgId,
      actor: by?.actor ?? 'unknown',
      thumbprint: key.thumbprint,
      previous,
    });
  }

  /**
   * One page of the org's devices in device_id order, each with its health at the Clock's now;
   * keyset, so pages stay stable under inserts.
   */
  async list(orgId: string, page: DeviceListRequest): Promise<Page<DeviceListRow>> {
    // Only the item's columns, as plain rows: hydrating whole entities cost more than the query
    // (docs/decisions/0012-constant-sql-on-hot-paths.md); no query runner (statement-rows.ts).
    const m = this.devices.manager;
    const now = this.clock.now();
    const health = page.health === undefined ? [] : [page.health];
    return keysetPage(page, DEVICE_ORDER, (after, take) => {
      const sql = LIST_SQL[after === undefined ? 0 : 1][health.length];
      const cursor = after === undefined ? [] : [after.after];
      return statementRows<DeviceListRow>(m, sql, [orgId, now, take, ...cursor, ...health]);
    });
  }

  /** Deactivates the org's device, which ends its outstanding tokens at once (the guard rereads it). */
  async deactivate(
    orgId: string,
    deviceId: string,
    by: DeviceActor = { actor: 'cli' },
  ): Promise<void> {
    const device = await this.findInOrg(orgId, deviceId);
    if (device.status === 'deactivated') return;
    const result = await this.devices.manager.transaction(async (m) => {
      const r = await m.update(
        Device,
        { id: device.id, status: 'active' },
        { status: 'deactivated', deactivatedAt: this.clock.now() },
      );
      if (r.affected) {
        await this.outbox.record(
          m,
          deviceEvent('device.deactivated', { ...device, status: 'deactivated' }),
        );
        await this.audit.event(m, 'device.deactivated', device, by.actor);
      }
      return r;
    });
    if (!result.affected) return; // a concurrent deactivation won, and wrote the line
    this.audit.changed('device_deactivated', { deviceId, orgId, ...by });
  }

  /**
   * Read on every device request (the bearer strategy): one constant statement, every column under
   * its property name, instead of a query builder built per call.
   */
  async findActive(deviceId: string, orgId: string): Promise<Device | null> {
    if (!isCanonicalDeviceId(deviceId)) return null;
    this.findActiveSql ??= `SELECT ${columnsAsProperties(this.devices.metadata)} FROM devices WHERE device_id = $1 AND org_id = $2 AND status = 'active' LIMIT 1`;
    const [row] = await statementRows(this.devices.manager, this.findActiveSql, [deviceId, orgId]);
    return row ? Object.assign(new Device(), row) : null;
  }

  /**
   * A device's status in one organization, null when it has no such device (another org's answers
   * the same): what another feature checks before it hands a device to someone (shipping).
   */
  async statusIn(
    orgId: string,
    deviceId: string,
    manager?: EntityManager,
  ): Promise<Device['status'] | null> {
    if (!isCanonicalDeviceId(deviceId)) return null;
    // Inside the caller's transaction the row is share-locked: no deactivation lands before it ends.
    const [row] = await statementRows<Pick<Device, 'status'>>(
      manager ?? this.devices.manager,
      manager ? STATUS_IN_ORG_LOCKED_SQL : STATUS_IN_ORG_SQL,
      [deviceId, orgId],
    );
    return row?.status ?? null;
  }

  private async findInOrg(orgId: string, deviceId: string): Promise<Device> {
    const device = isCanonicalDeviceId(deviceId)
      ? await this.devices.findOneBy({ orgId, deviceId })
      : null;
    // Another org's device answers exactly like a missing one.
    if (!device) throw new DeviceError(ErrorCode.NotFound, 'No such device.');
    return device;
  }
}

/** A usable device key, or 400 validation_failed naming `public_key`. */
async function validKey(jwk: DevicePublicJwk): Promise<DeviceKey> {
  try {
    return await deviceKeyFrom(jwk);
  } catch (err) {
    if (!(err instanceof DeviceKeyError)) throw err;
    throw new DeviceError(ErrorCode.ValidationFailed, err.message, [
      { field: 'public_key', message: err.message },
    ]);
  }
}
