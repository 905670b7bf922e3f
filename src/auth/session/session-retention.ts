import type { RetentionRule } from '../../database/housekeeping.service';

/**
 * Ended sessions are kept a week (docs/checkout.md). A session ended at the first of its
 * absolute end, idle end and revocation (LEAST skips the NULL of a session never revoked); the
 * index IDX_sessions_ended_at is on this very expression.
 */
export const SESSION_RETENTION: RetentionRule = {
  name: 'sessions',
  table: 'sessions',
  endedAt: 'LEAST(expires_at, idle_expires_at, revoked_at)',
  retentionSeconds: 7 * 24 * 3600,
};
