import { Injectable, Logger } from '@nestjs/common';
import { PeriodicJob } from '../../common/lifecycle/periodic-job';
import { AppConfig } from '../../config/app-config';
import { DeviceLiveness } from './device-liveness.service';

/**
 * Runs the liveness pass every DEVICE_LIVENESS_INTERVAL_SECONDS, server only (the CLI's
 * `device:liveness` runs one). Instances take turns through the pass's advisory lock; at shutdown
 * a pass in progress ends after its current batch.
 */
@Injectable()
export class DeviceLivenessScheduler extends PeriodicJob {
  private readonly logger = new Logger('DeviceLiveness');

  constructor(
    private readonly config: AppConfig,
    private readonly liveness: DeviceLiveness,
  ) {
    super();
  }

  protected intervalSeconds(): number {
    return this.config.deviceLiveness.intervalSeconds;
  }

  protected async runOnce(): Promise<void> {
    await this.liveness
      .runOnce()
      .catch((err: unknown) => this.logger.error(`liveness pass failed: ${String(err)}`));
  }

  protected interrupt(): void {
    this.liveness.stop();
  }
}
