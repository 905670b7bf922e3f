import type { Provider } from '@nestjs/common';
import { configuredRetention } from '../database/housekeeping.module';
import type { RetentionRule } from '../database/housekeeping.service';

/**
 * Events older than AUDIT_RETENTION_DAYS go, strictly from the chain's oldest end, so what is left
 * is one unbroken chain whose first `prev_hash` `audit:verify` takes as given: a batch deletes the
 * oldest rows up to the first one still young enough (even if a later one is older, as a clock
 * skew between instances may make it), and never the newest, from which the chain goes on.
 */
const PRUNE_SQL = `WITH head AS (SELECT seq, occurred_at FROM audit_events ORDER BY seq LIMIT $2),
  stop AS (SELECT LEAST(
    coalesce((SELECT min(seq) FROM head WHERE occurred_at >= $1), (SELECT max(seq) + 1 FROM head)),
    (SELECT max(seq) FROM audit_events)) AS seq)
  DELETE FROM audit_events WHERE seq < (SELECT seq FROM stop)`;

export function auditRetentionRule(days: number): RetentionRule {
  return {
    name: 'audit_events',
    table: 'audit_events',
    endedAt: 'occurred_at',
    retentionSeconds: days * 86_400,
    deleteSql: PRUNE_SQL,
    // The one permission the append-only trigger grants (migration 1795800000000-AuditEvents).
    before: "SET LOCAL device_care.audit_prune = 'on'",
  };
}

/** Registered with the housekeeping pass unless AUDIT_RETENTION_DAYS is 0 (kept forever). */
export const auditRetention = (): Provider =>
  configuredRetention('audit_events', (config) =>
    config.auditRetentionDays > 0 ? auditRetentionRule(config.auditRetentionDays) : undefined,
  );
