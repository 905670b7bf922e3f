import type { RetentionRule } from '../database/housekeeping.service';

/** Events whose every delivery succeeded go 30 days later (their deliveries with them). */
export const OUTGOING_EVENT_RETENTION: RetentionRule = {
  name: 'outgoing_events',
  table: 'outgoing_events',
  endedAt: 'settled_at',
  retentionSeconds: 30 * 86_400,
};
