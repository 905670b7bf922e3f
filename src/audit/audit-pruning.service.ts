import { Injectable, Provider } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { AppConfig } from '../config/app-config';
import { ADVISORY_LOCK } from '../database/advisory-locks';
import { changedRows } from '../database/changed-rows';
import { HOUSEKEEPING_BATCH, type HousekeepingTask } from '../database/housekeeping.service';
import { housekeepingTask } from '../database/housekeeping.module';
import { AuditChainStarts } from './audit-chain-starts.service';

/**
 * The last event a batch prunes: strictly from the chain's oldest end, up to the first event
 * still young enough (even if a later one is older, as a clock skew between instances may make
 * it), never the newest, from which the chain goes on. None when nothing is due.
 */
const LAST_DUE_SQL = `WITH head AS (SELECT seq, occurred_at FROM audit_events ORDER BY seq LIMIT $2),
  stop AS (SELECT LEAST(
    coalesce((SELECT min(seq) FROM head WHERE occurred_at >= $1), (SELECT max(seq) + 1 FROM head)),
    (SELECT max(seq) FROM audit_events)) AS seq)
  SELECT seq, hash FROM audit_events WHERE seq = (SELECT seq FROM stop) - 1`;

const PRUNE_SQL = 'DELETE FROM audit_events WHERE seq <= $1';

/**
 * Events older than AUDIT_RETENTION_DAYS go (docs/audit.md, "Retention"), a batch per
 * transaction under the chain's lock: each batch first records the chain's new start (the last
 * pruned event's seq and hash, with its MAC), which the append-only trigger asks for before it
 * lets a row go, then deletes up to it. 0 days keeps every event.
 */
@Injectable()
export class AuditPruning implements HousekeepingTask {
  readonly name = 'audit_events';

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly starts: AuditChainStarts,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  async run(stopping: () => boolean): Promise<number> {
    const days = this.config.auditRetentionDays;
    if (days === 0) return 0;
    const cutoff = new Date(this.clock.now().getTime() - days * 86_400_000);
    let pruned = 0;
    while (!stopping()) {
      const n = await this.pruneBatch(cutoff);
      pruned += n;
      if (n < HOUSEKEEPING_BATCH) break;
    }
    return pruned;
  }

  private pruneBatch(cutoff: Date): Promise<number> {
    return this.dataSource.transaction(async (m) => {
      await m.query('SELECT pg_advisory_xact_lock($1)', [ADVISORY_LOCK.auditChain]);
      const [last] = await m.query<{ seq: string; hash: string }[]>(LAST_DUE_SQL, [
        cutoff,
        HOUSEKEEPING_BATCH,
      ]);
      if (!last) return 0;
      await this.starts.recordPruned(m, last.seq, last.hash);
      // The one permission the append-only trigger grants, with the start just recorded.
      await m.query("SET LOCAL device_care.audit_prune = 'on'");
      return (await changedRows(m, PRUNE_SQL, [last.seq])).affected;
    });
  }
}

/** The pruning and its registration with the housekeeping pass: list both in the module. */
export const auditPruning = (): Provider[] => [
  AuditPruning,
  housekeepingTask('audit_events', AuditPruning),
];
