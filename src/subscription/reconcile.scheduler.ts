import {
  BeforeApplicationShutdown,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import { AppConfig } from '../config/app-config';
import { ReconcileReport, SubscriptionReconciler } from './subscription-reconciler.service';

/**
 * Runs the reconcile pass every RECONCILE_INTERVAL_SECONDS (0: never), one pass at a time in this
 * process; the pass's advisory lock keeps instances from claiming the same records. The timer
 * stops at shutdown, and a pass in progress ends after its current record.
 */
@Injectable()
export class ReconcileScheduler implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('Reconcile');
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;

  constructor(
    private readonly config: AppConfig,
    private readonly reconciler: SubscriptionReconciler,
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
    await this.running;
  }

  private tick(): void {
    if (this.running) return;
    this.running = this.reconciler
      .runOnce()
      .then((report) => this.report(report))
      .catch((err: unknown) => this.logger.error(`reconcile pass failed: ${String(err)}`))
      .finally(() => {
        this.running = undefined;
      });
  }

  /** Counts and ids only. */
  private report(r: ReconcileReport): void {
    if (r.skipped || r.asked === 0) return;
    const line = `reconcile pass: asked ${r.asked}, changed ${r.changed.length}, unchanged ${r.unchanged}, failed ${r.failed.length}`;
    if (r.failed.length > 0) this.logger.warn(line);
    else this.logger.log(line);
  }
}
