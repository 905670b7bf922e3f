import { performance } from 'node:perf_hooks';
import { Injectable, Logger } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { EventOutbox } from '../../outgoing-webhook/outbox/event-outbox.service';
import { LIVENESS_PASS_SQL } from './device-liveness.sql';
import { livenessEventsSent } from './device-liveness.metrics';
import { Device } from '../device.entity';

/** Devices per batch: each batch is one statement (so one short transaction), its events with it. */
export const LIVENESS_BATCH = 1000;

/** What one pass did: devices reported offline, batches run (one may be empty), its duration. */
export interface LivenessPass {
  offline: number;
  batches: number;
  ms: number;
}

/**
 * The liveness pass (docs/devices.md, "Liveness"): every device whose deadline passed is marked
 * `offline_since` and its `device.offline` recorded by the same statement, a batch at a time.
 * It reads only what changed (the partial index of due devices), so a quiet fleet costs nothing.
 * One instance at a time: each batch takes the pass's transaction-level advisory lock and finds
 * nothing due when another instance holds it (that one is doing the work), which ends the pass.
 */
@Injectable()
export class DeviceLiveness {
  private readonly logger = new Logger('DeviceLiveness');
  private stopping = false;

  constructor(
    @InjectRepository(Device) private readonly devices: Repository<Device>,
    private readonly clock: Clock,
    private readonly outbox: EventOutbox,
  ) {}

  async runOnce(): Promise<LivenessPass> {
    const started = performance.now();
    this.stopping = false;
    let offline = 0;
    let batches = 0;
    for (;;) {
      const marked = await this.batch();
      batches += 1;
      offline += marked;
      if (marked > 0) livenessEventsSent.inc({ type: 'device.offline' }, marked);
      if (marked < LIVENESS_BATCH || this.stopping) break;
    }
    const ms = Math.round(performance.now() - started);
    if (offline > 0) this.logger.log(`${offline} device(s) reported offline in ${ms} ms`);
    return { offline, batches, ms };
  }

  /** At shutdown: the pass ends after its current batch. */
  stop(): void {
    this.stopping = true;
  }

  /** One batch: the devices marked offline (none when another instance holds the pass). */
  private batch(): Promise<number> {
    const params = [this.clock.now(), LIVENESS_BATCH];
    return this.outbox.recordEach(
      this.devices.manager,
      LIVENESS_PASS_SQL,
      params,
      'device.offline',
    );
  }
}
