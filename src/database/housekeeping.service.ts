import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ADVISORY_LOCK } from './advisory-locks';
import { changedRows } from './changed-rows';

/** Rows per statement: each batch is its own short transaction, so no lock is held for long. */
export const HOUSEKEEPING_BATCH = 1000;

/** What a feature asks to have deleted once it is old enough. */
export interface RetentionRule {
  /** Names the rule in the report, e.g. `sessions`. */
  name: string;
  table: string;
  /** The primary key's columns: `['id']` unless given. */
  key?: string[];
  /**
   * The moment a row stopped mattering, as an SQL expression over the row; an index on exactly
   * this expression keeps each batch from scanning the table.
   */
  endedAt: string;
  retentionSeconds: number;
  /**
   * A batch's own DELETE, for a table the generic one does not fit (the audit chain, pruned only
   * from its oldest end): `$1` the cutoff, `$2` the batch size; at most `$2` rows.
   */
  deleteSql?: string;
  /** A statement run first in each batch's transaction (a `SET LOCAL` a table's trigger reads). */
  before?: string;
}

/**
 * A pass of a feature's own that housekeeping runs after the deletions (retention that is more
 * than a DELETE: erasing personal data). It takes care of its own batches and locks.
 */
export interface HousekeepingTask {
  /** Names the task in the report, e.g. `subscriptions_erased`. */
  name: string;
  /** How many rows it handled; checks `stopping()` between its steps. */
  run(stopping: () => boolean): Promise<number>;
}

export interface HousekeepingReport {
  /** Set when another instance was deleting (it holds the lock), or this one is stopping. */
  skipped?: 'another_instance' | 'stopping';
  /** Rows deleted, by rule name. */
  deleted: Record<string, number>;
  /** Rows handled, by task name (HousekeepingTask). */
  handled?: Record<string, number>;
}

/** The batch's DELETE of most rules. */
function deleteSql(rule: RetentionRule): string {
  const key = (rule.key ?? ['id']).join(', ');
  // Oldest first: ORDER BY the indexed expression keeps the plan on the index even when
  // most of the table is due (a sequential scan would read past ever more dead rows).
  return `DELETE FROM ${rule.table} WHERE (${key}) IN (SELECT ${key} FROM ${rule.table}
    WHERE ${rule.endedAt} < $1 ORDER BY ${rule.endedAt} LIMIT $2 FOR UPDATE SKIP LOCKED)`;
}

/**
 * Deletes rows past their retention (docs/checkout.md), rule by rule, in batches of
 * HOUSEKEEPING_BATCH. One instance at a time: every batch takes a transaction-level advisory lock
 * and the pass stops when another instance holds it. Rows locked right now are skipped, never
 * waited for; they go in a later pass.
 */
@Injectable()
export class Housekeeping {
  private readonly logger = new Logger('Housekeeping');
  private readonly rules = new Map<string, RetentionRule>();
  private readonly tasks = new Map<string, HousekeepingTask>();
  private stopping = false;

  constructor(
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  register(rule: RetentionRule): void {
    this.rules.set(rule.name, rule);
  }

  registerTask(task: HousekeepingTask): void {
    this.tasks.set(task.name, task);
  }

  /** Ends the pass in progress after its current batch (shutdown). */
  stop(): void {
    this.stopping = true;
  }

  async runOnce(): Promise<HousekeepingReport> {
    const report: HousekeepingReport = { deleted: {} };
    for (const rule of this.rules.values()) {
      const cutoff = new Date(this.clock.now().getTime() - rule.retentionSeconds * 1000);
      report.deleted[rule.name] = 0;
      for (;;) {
        if (this.stopping) return { ...report, skipped: 'stopping' };
        const n = await this.deleteBatch(rule, cutoff);
        if (n === undefined) return { ...report, skipped: 'another_instance' };
        report.deleted[rule.name] += n;
        if (n < HOUSEKEEPING_BATCH) break;
      }
    }
    for (const task of this.tasks.values()) {
      if (this.stopping) return { ...report, skipped: 'stopping' };
      report.handled = { ...report.handled, [task.name]: await task.run(() => this.stopping) };
    }
    this.log(report);
    return report;
  }

  /** Undefined when another instance holds the lock. */
  private deleteBatch(rule: RetentionRule, cutoff: Date): Promise<number | undefined> {
    return this.dataSource.transaction(async (manager) => {
      const [lock] = await manager.query<{ ok: boolean }[]>(
        'SELECT pg_try_advisory_xact_lock($1) AS ok',
        [ADVISORY_LOCK.housekeeping],
      );
      if (!lock.ok) return undefined;
      if (rule.before) await manager.query(rule.before);
      const { affected } = await changedRows(manager, rule.deleteSql ?? deleteSql(rule), [
        cutoff,
        HOUSEKEEPING_BATCH,
      ]);
      return affected;
    });
  }

  /** Counts only. */
  private log(report: HousekeepingReport): void {
    const parts = Object.entries(report.deleted).filter(([, n]) => n > 0);
    const handled = Object.entries(report.handled ?? {}).filter(([, n]) => n > 0);
    if (parts.length === 0 && handled.length === 0) return;
    const all = [...parts, ...handled].map(([name, n]) => `${n} ${name}`).join(', ');
    this.logger.log(`deleted ${all}`);
  }
}
