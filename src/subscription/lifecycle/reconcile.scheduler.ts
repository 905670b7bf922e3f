import { Injectable, Logger } from '@nestjs/common';
import { PeriodicJob } from '../../common/lifecycle/periodic-job';
import { AppConfig } from '../../config/app-config';
import { ReconcileReport, SubscriptionReconciler } from './subscription-reconciler.service';

/**
 * Runs the reconcile pass every RECONCILE_INTERVAL_SECONDS (0: never); an advisory lock keeps
 * instances from claiming the same records, and at shutdown a pass in progress ends after its
 * current record. Housekeeping has its own timer (HousekeepingScheduler).
 */
@Injectable()
export class ReconcileScheduler extends PeriodicJob {
  private readonly logger = new Logger('Reconcile');

  constructor(
    private readonly config: AppConfig,
    private readonly reconciler: SubscriptionReconciler,
  ) {
    super();
  }

  protected intervalSeconds(): number {
    return this.config.subscriptions.reconcileIntervalSeconds;
  }

  protected async runOnce(): Promise<void> {
    await this.reconciler
      .runOnce()
      .then((report) => this.report(report))
      .catch((err: unknown) => this.logger.error(`reconcile pass failed: ${String(err)}`));
  }

  protected interrupt(): void {
    this.reconciler.stop();
  }

  /** Counts and ids only. */
  private report(r: ReconcileReport): void {
    if (r.skipped || (r.asked === 0 && !r.erasures)) return;
    const e = r.erasures;
    const erasures = e
      ? `; processor customers of erased records: deleted ${e.deleted}, failed ${e.failed}`
      : '';
    const line = `reconcile pass: asked ${r.asked}, changed ${r.changed.length}, unchanged ${r.unchanged}, failed ${r.failed.length}${erasures}`;
    if (r.failed.length > 0 || (e?.failed ?? 0) > 0) this.logger.warn(line);
    else this.logger.log(line);
  }
}
