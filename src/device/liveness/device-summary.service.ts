import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { AppConfig } from '../../config/app-config';
import { statementRows } from '../../database/statement-rows';
import { Device } from '../device.entity';
import { DEVICE_SUMMARY_SQL } from './device-liveness.sql';

/** How many of an organization's active devices are in each health, and how many run low. */
export interface DeviceSummary {
  online: number;
  offline: number;
  neverSeen: number;
  batteryLow: number;
}

/** The console's overview of a fleet (docs/devices.md, "Summary"): counts, in one statement. */
@Injectable()
export class DeviceSummaryService {
  constructor(
    @InjectRepository(Device) private readonly devices: Repository<Device>,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** At the Clock's now, as the list works health out; an org with no devices counts zeros. */
  async of(orgId: string): Promise<DeviceSummary> {
    const params = [orgId, this.clock.now(), this.config.deviceLiveness.batteryLowPct];
    const [row] = await statementRows<DeviceSummary>(
      this.devices.manager,
      DEVICE_SUMMARY_SQL,
      params,
    );
    return row;
  }
}
