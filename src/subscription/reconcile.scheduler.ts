import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { PeriodicTask } from '../common/lifecycle/periodic-task';
import { AppConfig } from '../config/app-config';
import { ReconcileReport, SubscriptionReconciler } from './subscription-reconciler.service';

/**
 * Runs the reconcile pass every RECONCILE_INTERVAL_SECONDS (0: never), one pass at a time in this
 * process; an advisory lock keeps instances from claiming the same records. The timer stops at
 * shutdown, and a pass in progress ends after its current record. Housekeeping has its own timer
 * (HousekeepingScheduler).
 */
@Injectable()
export class ReconcileScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Reconcile');
  private readonly task = new PeriodicTask(() =>
    this.reconciler
      .runOnce()
      .then((report) => this.report(report))
      .catch((err: unknown) => this.logger.error(`reconcile pass failed: ${String(err)}`)),
  );

  constructor(
    private readonly config: AppConfig,
    private readonly reconciler: SubscriptionReconciler,
  ) {}

  onApplicationBootstrap(): void {
    this.task.start(this.config.subscriptions.reconcileIntervalSeconds);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.reconciler.stop();
    await this.task.stop();
  }

  /** Counts and ids only. */
  private report(r: ReconcileReport): void {
    if (r.skipped || r.asked === 0) return;
    const line = `reconcile pass: asked ${r.asked}, changed ${r.changed.length}, unchanged ${r.unchanged}, failed ${r.failed.length}`;
    if (r.failed.length > 0) this.logger.warn(line);
    else this.logger.log(line);
  }
}
