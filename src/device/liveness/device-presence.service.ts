import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { AppConfig } from '../../config/app-config';
import { statementRows } from '../../database/statement-rows';
import { OrgService } from '../../org/org.service';
import {
  EventOutbox,
  type OrgOutgoingEvent,
} from '../../outgoing-webhook/outbox/event-outbox.service';
import {
  CONTACT_FAST_SQL,
  CONTACT_LOCK_SQL,
  CONTACT_SLOW_SQL,
  RECOMPUTE_DEADLINES_SQL,
} from './device-liveness.sql';
import { Device } from '../device.entity';
import { livenessEventsSent } from './device-liveness.metrics';

/** What a heartbeat reports besides the contact itself; a token reports nothing. */
export interface ContactReport {
  firmwareVersion?: string;
  batteryPct?: number;
}

/**
 * What a contact (a heartbeat, a token) does to a device's liveness (docs/devices.md, "Liveness"):
 * stamps `last_seen_at` and the deadline `offline_after` (now plus the organization's threshold).
 * Almost every contact crosses no line and costs one constant UPDATE, no transaction. A device
 * reported offline, or a battery falling under the mark, takes the slow path: the row locked, the
 * flags re-read, the change and its events in one transaction, so each crossing is sent once
 * however many contacts race.
 */
@Injectable()
export class DevicePresence implements OnModuleInit {
  constructor(
    @InjectRepository(Device) private readonly devices: Repository<Device>,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly outbox: EventOutbox,
    private readonly orgs: OrgService,
  ) {}

  /** An organization's new threshold moves its devices' deadlines, in the change's transaction. */
  onModuleInit(): void {
    this.orgs.onDeviceThresholdChange((m, orgId) => this.thresholdChanged(m, orgId));
  }

  /** A heartbeat or a token of the device whose row is `id` (`Device.id`, not its device_id). */
  async contact(id: string, report: ContactReport = {}): Promise<void> {
    const params = this.paramsOf(id, report);
    const fast = await statementRows(this.devices.manager, CONTACT_FAST_SQL, params);
    if (fast.length > 0) return;
    const sent = await this.devices.manager.transaction((m) => this.slow(m, params));
    for (const e of sent) livenessEventsSent.inc({ type: e.type });
  }

  /** Deadlines of an organization's seen devices: last contact plus the threshold now in force. */
  private async thresholdChanged(m: EntityManager, orgId: string): Promise<void> {
    await m.query(RECOMPUTE_DEADLINES_SQL, [orgId, this.config.deviceLiveness.offlineAfterSeconds]);
  }

  /**
   * The locked re-read and write; returns the events it recorded (none: another contact won).
   * What crossed is decided by the statements (the battery rule is device-liveness.sql.ts's).
   */
  private async slow(m: EntityManager, params: unknown[]): Promise<OrgOutgoingEvent[]> {
    type Crossed = { wasOffline: boolean; batteryFalls: boolean };
    const [id, , , , battery, mark] = params;
    const [crossed] = await statementRows<Crossed>(m, CONTACT_LOCK_SQL, [id, battery, mark]);
    if (!crossed) return []; // the device is gone: nothing to stamp
    const [row] = await statementRows<{ orgId: string; data: string }>(m, CONTACT_SLOW_SQL, params);
    // The device's data as PostgreSQL wrote it (deviceEventSql): parsed, then stringified in the
    // body again, to the same bytes (once a crossing, not a heartbeat).
    const data = JSON.parse(row.data) as object;
    const event = (type: OrgOutgoingEvent['type']) => ({
      type,
      orgId: row.orgId,
      data,
    });
    const events: OrgOutgoingEvent[] = [];
    if (crossed.wasOffline) events.push(event('device.online'));
    if (crossed.batteryFalls) events.push(event('device.battery_low'));
    await this.outbox.recordMany(m, events);
    return events;
  }

  /** $1 id, $2 now, $3 default threshold, $4 firmware, $5 battery, $6 the battery mark. */
  private paramsOf(id: string, report: ContactReport): unknown[] {
    return [
      id,
      this.clock.now(),
      this.config.deviceLiveness.offlineAfterSeconds,
      report.firmwareVersion ?? null,
      report.batteryPct ?? null,
      this.config.deviceLiveness.batteryLowPct,
    ];
  }
}
