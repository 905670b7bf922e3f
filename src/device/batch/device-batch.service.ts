import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { takenIn } from '../../common/errors/database-errors';
import { statementRows } from '../../database/statement-rows';
import { OrgService } from '../../org/org.service';
import { EventOutbox, OrgOutgoingEvent } from '../../outgoing-webhook/outbox/event-outbox.service';
import { DEVICE_BATCH_MAX } from './device-batch.dto';
import { BatchRow, BatchRowError, checkedRows } from './device-batch.rows';
import { DeviceAudit } from '../device-audit';
import { Device } from '../device.entity';
import { DeviceError } from '../device.error';
import type { DeviceActor } from '../registry/device.service';
import { deviceEvent } from '../device-events';

/** What a batch did. With any error nothing was written, and `created` and `existing` are empty. */
export interface DeviceBatchResult {
  created: string[];
  existing: string[];
  errors: BatchRowError[];
}

/** The registered devices among a batch's ids, wherever they are (one statement, decision 0012). */
const FIND_SQL = `SELECT device_id AS "deviceId", org_id AS "orgId", model, provider,
  public_key_thumbprint AS "thumbprint" FROM devices WHERE device_id = ANY($1::varchar[])`;

/** Another organization's device_id: the single registration's words, nothing of the device. */
const TAKEN = takenIn('UQ_devices_device_id').detail;

/**
 * The new devices in one statement. A device_id that another transaction registered since the
 * read is skipped, not a unique violation (which would end the transaction): the caller reads
 * those again and sorts them out. Rows go in device_id order, so two overlapping batches wait on
 * each other's rows in one order and cannot deadlock. Times from the Clock, as the entity
 * subscriber stamps them.
 */
const INSERT_SQL = `INSERT INTO devices (org_id, device_id, model, provider, public_key,
    public_key_thumbprint, status, created_at, updated_at)
  SELECT $1::uuid, d.device_id, d.model, d.provider, d.public_key::jsonb, d.thumbprint, 'active', $7, $7
  FROM unnest($2::varchar[], $3::varchar[], $4::varchar[], $5::text[], $6::varchar[])
    AS d(device_id, model, provider, public_key, thumbprint)
  ORDER BY d.device_id
  ON CONFLICT (device_id) DO NOTHING
  RETURNING device_id AS "deviceId"`;

interface FoundDevice {
  deviceId: string;
  orgId: string;
  model: string;
  provider: string;
  thumbprint: string | null;
}

/** Thrown inside the transaction to roll it back when a row raced into a conflict. */
class Refused extends Error {
  constructor(readonly errors: BatchRowError[]) {
    super('batch refused');
  }
}

const refused = (errors: BatchRowError[]): DeviceBatchResult => ({
  created: [],
  existing: [],
  errors: [...errors].sort((a, b) => a.index - b.index),
});

/**
 * Registers many devices of one organization at once (contract section 10, docs/devices.md):
 * all or nothing, repeatable (a device already there as asked is `existing`), a few statements
 * whatever the size: one read, one INSERT, one statement for the events, the audit events.
 */
@Injectable()
export class DeviceBatch {
  constructor(
    @InjectRepository(Device) private readonly devices: Repository<Device>,
    private readonly orgs: OrgService,
    private readonly audit: DeviceAudit,
    private readonly clock: Clock,
    private readonly outbox: EventOutbox,
  ) {}

  /** `items` as the client sent them: each is checked here, so an error names its index. */
  async register(
    orgId: string,
    items: readonly unknown[],
    by: DeviceActor,
  ): Promise<DeviceBatchResult> {
    if (items.length > DEVICE_BATCH_MAX) {
      const message = `devices must contain no more than ${DEVICE_BATCH_MAX} elements`;
      throw new DeviceError(ErrorCode.ValidationFailed, message, [{ field: 'devices', message }]);
    }
    const org = await this.orgs.get(orgId);
    const { rows, errors } = await checkedRows(items);
    const found = await this.found(this.devices.manager, rows);
    const sorted = sortOut(org.id, rows, found);
    errors.push(...sorted.errors);
    if (errors.length > 0) return refused(errors);
    if (sorted.fresh.length === 0) return done([], sorted.existing);
    try {
      return await this.devices.manager.transaction((m) =>
        this.insert(m, org.id, sorted.fresh, sorted.existing, by),
      );
    } catch (err) {
      if (err instanceof Refused) return refused(err.errors);
      throw err;
    }
  }

  private async insert(
    m: EntityManager,
    orgId: string,
    fresh: BatchRow[],
    existing: BatchRow[],
    by: DeviceActor,
  ): Promise<DeviceBatchResult> {
    const params = insertParams(orgId, fresh, this.clock.now());
    const rows = await statementRows<{ deviceId: string }>(m, INSERT_SQL, params);
    const inserted = new Set(rows.map((r) => r.deviceId));
    const created = fresh.filter((r) => inserted.has(r.deviceId));
    // Registered by a concurrent call between the read and the INSERT: existing if as asked.
    const raced = fresh.filter((r) => !inserted.has(r.deviceId));
    const late = sortOut(orgId, raced, await this.found(m, raced));
    if (late.errors.length > 0) throw new Refused(late.errors);
    const events = created.map((r): OrgOutgoingEvent => registered(orgId, r));
    await this.outbox.recordMany(m, events);
    const audited = created.map((r) => ({ deviceId: r.deviceId, keyed: r.key !== undefined }));
    if (created.length > 0) await this.audit.batchRegistered(m, orgId, audited, by.actor);
    return done(created, [...existing, ...late.existing]);
  }

  private async found(m: EntityManager, rows: BatchRow[]): Promise<Map<string, FoundDevice>> {
    if (rows.length === 0) return new Map();
    const ids = rows.map((r) => r.deviceId);
    const found = await statementRows<FoundDevice>(m, FIND_SQL, [ids]);
    return new Map(found.map((d) => [d.deviceId, d]));
  }
}

/** Each checked row against what is registered: new, already there as asked, or a conflict. */
function sortOut(
  orgId: string,
  rows: BatchRow[],
  found: Map<string, FoundDevice>,
): { fresh: BatchRow[]; existing: BatchRow[]; errors: BatchRowError[] } {
  const fresh: BatchRow[] = [];
  const existing: BatchRow[] = [];
  const errors: BatchRowError[] = [];
  for (const row of rows) {
    const device = found.get(row.deviceId);
    const conflict = device && conflictOf(orgId, row, device);
    if (!device) fresh.push(row);
    else if (conflict)
      errors.push({ index: row.index, code: ErrorCode.DeviceExists, message: conflict });
    else existing.push(row);
  }
  return { fresh, existing, errors };
}

/**
 * Why a registered device is not the one the row asks for, or undefined when it is. Another
 * organization's device is TAKEN. A row without a key matches whatever key the device has (the
 * CSV has none); a row with one must name the device's key (a batch never rotates a key: PUT
 * …/public-key does).
 */
function conflictOf(orgId: string, row: BatchRow, device: FoundDevice): string | undefined {
  if (device.orgId !== orgId) return TAKEN;
  if (device.model !== row.model || device.provider !== row.provider) {
    return 'This device_id is registered in this organization with another model or provider.';
  }
  if (row.key && row.key.thumbprint !== device.thumbprint) {
    return 'This device_id is registered in this organization with another public key, or none.';
  }
  return undefined;
}

function insertParams(orgId: string, rows: BatchRow[], now: Date): unknown[] {
  return [
    orgId,
    rows.map((r) => r.deviceId),
    rows.map((r) => r.model),
    rows.map((r) => r.provider),
    rows.map((r) => (r.key ? JSON.stringify(r.key.jwk) : null)),
    rows.map((r) => r.key?.thumbprint ?? null),
    now,
  ];
}

/** A new device's event: the one shape of device events (device-events.ts). */
function registered(orgId: string, r: BatchRow): OrgOutgoingEvent {
  return deviceEvent('device.registered', { ...r, orgId, status: 'active' });
}

const idsInBatchOrder = (rows: BatchRow[]): string[] =>
  [...rows].sort((a, b) => a.index - b.index).map((r) => r.deviceId);

const done = (created: BatchRow[], existing: BatchRow[]): DeviceBatchResult => ({
  created: idsInBatchOrder(created),
  existing: idsInBatchOrder(existing),
  errors: [],
});
