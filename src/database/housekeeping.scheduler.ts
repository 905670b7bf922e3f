import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { PeriodicTask } from '../common/lifecycle/periodic-task';
import { AppConfig } from '../config/app-config';
import { Housekeeping } from './housekeeping.service';

/**
 * Runs the housekeeping pass every HOUSEKEEPING_INTERVAL_SECONDS (0: never), on its own timer so
 * that turning the reconcile pass off does not stop retention. Instances take turns through the
 * pass's advisory lock; at shutdown a pass in progress ends after its current batch.
 */
@Injectable()
export class HousekeepingScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Housekeeping');
  private readonly task = new PeriodicTask(() =>
    this.housekeeping
      .runOnce()
      .then(() => undefined)
      .catch((err: unknown) => this.logger.error(`housekeeping failed: ${String(err)}`)),
  );

  constructor(
    private readonly config: AppConfig,
    private readonly housekeeping: Housekeeping,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.config.housekeepingIntervalSeconds);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.housekeeping.stop();
    await this.task.stop();
  }
}
