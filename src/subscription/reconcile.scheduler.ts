import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { Housekeeping } from '../database/housekeeping.service';
import { ReconcileReport, SubscriptionReconciler } from './subscription-reconciler.service';

/**
 * Runs the periodic pass every RECONCILE_INTERVAL_SECONDS (0: never), one pass at a time in this
 * process: reconcile, then housekeeping (rows past their retention). Advisory locks keep instances
 * from claiming the same records or deleting at the same time. The timer stops at shutdown, and a
 * pass in progress ends after its current record or batch.
 */
@Injectable()
export class ReconcileScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Reconcile');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly config: AppConfig,
    private readonly reconciler: SubscriptionReconciler,
    private readonly housekeeping: Housekeeping,
  ) {}

  onApplicationBootstrap(): void {
    const seconds = this.config.subscriptions.reconcileIntervalSeconds;
    if (seconds === 0) return;
    this.timer = setInterval(() => this.tick(), seconds * 1000);
    // The timer alone must not keep the process alive.
    this.timer.unref();
  }

  async beforeApplicationShutdown(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    this.reconciler.stop();
    this.housekeeping.stop();
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.pass().finally(() => {
      this.running = undefined;
    });
  }

  /** One pass; a failure of either part is logged and does not keep the other from running. */
  private async pass(): Promise<void> {
    await this.reconciler
      .runOnce()
      .then((report) => this.report(report))
      .catch((err: unknown) => this.logger.error(`reconcile pass failed: ${String(err)}`));
    await this.housekeeping
      .runOnce()
      .catch((err: unknown) => this.logger.error(`housekeeping failed: ${String(err)}`));
  }

  /** Counts and ids only. */
  private report(r: ReconcileReport): void {
    if (r.skipped || r.asked === 0) return;
    const line = `reconcile pass: asked ${r.asked}, changed ${r.changed.length}, unchanged ${r.unchanged}, failed ${r.failed.length}`;
    if (r.failed.length > 0) this.logger.warn(line);
    else this.logger.log(line);
  }
}
