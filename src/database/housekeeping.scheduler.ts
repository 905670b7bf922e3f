import { Injectable, Logger } from '@nestjs/common';
import { PeriodicJob } from '../common/lifecycle/periodic-job';
import { AppConfig } from '../config/app-config';
import { Housekeeping } from './housekeeping.service';

/**
 * Runs the housekeeping pass every HOUSEKEEPING_INTERVAL_SECONDS (0: never), on its own timer so
 * that turning the reconcile pass off does not stop retention. Instances take turns through the
 * pass's advisory lock; at shutdown a pass in progress ends after its current batch.
 */
@Injectable()
export class HousekeepingScheduler extends PeriodicJob {
  private readonly logger = new Logger('Housekeeping');

  constructor(
    private readonly config: AppConfig,
    private readonly housekeeping: Housekeeping,
  ) {
    super();
  }

  protected intervalSeconds(): number {
    return this.config.housekeepingIntervalSeconds;
  }

  protected async runOnce(): Promise<void> {
    await this.housekeeping
      .runOnce()
      .catch((err: unknown) => this.logger.error(`housekeeping failed: ${String(err)}`));
  }

  protected interrupt(): void {
    this.housekeeping.stop();
  }
}
