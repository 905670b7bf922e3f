import type { RetentionRule } from '../../database/housekeeping.service';

/**
 * Assertion ids are useless once they expire (`exp` + 30 s). consume() drops a device's own
 * expired ids; these are the ones of devices that stopped signing in, which it never revisits.
 */
export const DEVICE_JTI_RETENTION: RetentionRule = {
  name: 'device_jtis',
  table: 'device_assertion_jtis',
  key: ['device_pk', 'jti'],
  endedAt: 'expires_at',
  retentionSeconds: 0,
};
