import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { SYSTEM_ACTOR } from '../../audit/audit-event.types';
import { Clock } from '../../common/clock/clock';
import { AppConfig } from '../../config/app-config';
import type { HousekeepingTask } from '../../database/housekeeping.service';
import { sqlTextList } from '../../database/sql-text-list';
import { FINAL_STATUSES } from '../lifecycle/subscription-status.machine';
import { SubscriptionErasure } from './subscription-erasure.service';

/** Records read per query; each is then erased in its own transaction. */
const BATCH = 100;
const FIRST_ID = '00000000-0000-0000-0000-000000000000';

/**
 * Records past retention, not yet erased, after `$3` in id order (so a record skipped because
 * another instance holds it is not read again in this pass). Ended ones count from their status
 * change, pending ones from their creation (IDX_subscriptions_retention and the status index).
 */
const DUE_SQL = `SELECT id FROM subscriptions WHERE erased_at IS NULL AND id > $3 AND (
    (status IN (${sqlTextList([...FINAL_STATUSES])}) AND status_changed_at < $1)
    OR (status = 'pending' AND created_at < $1))
  ORDER BY id LIMIT $2`;

/**
 * Forgotten on time (contract section 9): the housekeeping pass erases records `canceled`,
 * `expired` or `payment_failed` for PERSONAL_DATA_RETENTION_DAYS, or `pending` that long after
 * their creation, as an erasure on request would (actor `system`); 0 days turns it off.
 */
@Injectable()
export class SubscriptionRetention implements HousekeepingTask {
  readonly name = 'subscriptions_erased';
  private readonly logger = new Logger('Housekeeping');

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly erasure: SubscriptionErasure,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async run(stopping: () => boolean): Promise<number> {
    const days = this.config.personalDataRetentionDays;
    if (days === 0) return 0;
    const cutoff = new Date(this.clock.now().getTime() - days * 86_400_000);
    let erased = 0;
    for (let after = FIRST_ID; ;) {
      const rows = await this.dataSource.query<{ id: string }[]>(DUE_SQL, [cutoff, BATCH, after]);
      for (const { id } of rows) {
        if (stopping()) return erased;
        if (await this.eraseOne(id, cutoff)) erased++;
      }
      if (rows.length < BATCH) return erased;
      after = rows[rows.length - 1].id;
    }
  }

  /** One record's failure is logged (ids only) and the pass goes on; the next pass tries again. */
  private async eraseOne(id: string, cutoff: Date): Promise<boolean> {
    try {
      return await this.erasure.eraseIfDue(id, cutoff, SYSTEM_ACTOR);
    } catch (err) {
      this.logger.warn(`subscription ${id}: not erased by retention: ${String(err).slice(0, 200)}`);
      return false;
    }
  }
}
