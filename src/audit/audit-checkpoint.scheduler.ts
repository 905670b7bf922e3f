import { Injectable, Logger } from '@nestjs/common';
import { PeriodicJob } from '../common/lifecycle/periodic-job';
import { AppConfig } from '../config/app-config';
import { AuditEvents } from './audit-events.service';

/**
 * Every AUDIT_CHECKPOINT_INTERVAL_SECONDS (0: never) logs the chain's head as one
 * `audit checkpoint` line with `seq` and `hash` (docs/audit.md, "Checkpoints"): logs leave the
 * machine, so `audit:verify --checkpoint SEQ:HASH` can later show that the table was rewritten or
 * its newest events deleted. Every instance logs its own; any one line is enough.
 */
@Injectable()
export class AuditCheckpointScheduler extends PeriodicJob {
  private readonly logger = new Logger('AuditTrail');

  constructor(
    private readonly config: AppConfig,
    private readonly events: AuditEvents,
  ) {
    super();
  }

  protected intervalSeconds(): number {
    return this.config.auditCheckpointIntervalSeconds;
  }

  protected async runOnce(): Promise<void> {
    try {
      const head = await this.events.head();
      if (head) this.logger.log({ msg: 'audit checkpoint', seq: head.seq, hash: head.hash });
    } catch (err) {
      this.logger.error(`audit checkpoint failed: ${String(err)}`);
    }
  }

  protected interrupt(): void {
    // One short read: nothing to cut short.
  }
}
