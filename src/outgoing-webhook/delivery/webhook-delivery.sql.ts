/** The delivery table's statements (webhook-delivery.store.ts runs them). */
import { TEST_EVENT_TYPE } from '../outgoing-webhook.types';

const TEST = `'${TEST_EVENT_TYPE}'`;
/**
 * Per endpoint, the oldest due rows no one holds, as many as it has free slots ($5 less the live
 * leases of every instance): an index probe or two per endpoint, however deep one endpoint's
 * backlog (a window over every due row cost 90 ms at 10 000). A disabled endpoint is sent nothing
 * but its test calls: its other deliveries are not claimed (they stay as they are).
 */
const CANDIDATES_SQL = `SELECT c.event_id, c.endpoint_id, c.next_attempt_at FROM webhook_endpoints w
  CROSS JOIN LATERAL (SELECT d.event_id, d.endpoint_id, d.next_attempt_at FROM webhook_deliveries d
    WHERE d.endpoint_id = w.id AND d.status = 'pending' AND d.next_attempt_at <= $1
      AND (d.claimed_until IS NULL OR d.claimed_until < $1) AND (w.enabled
        OR (SELECT e.type FROM outgoing_events e WHERE e.id = d.event_id) = ${TEST})
    ORDER BY d.next_attempt_at
    LIMIT GREATEST(0, $5 - (SELECT count(*) FROM webhook_deliveries b
      WHERE b.endpoint_id = w.id AND b.claimed_until IS NOT NULL AND b.claimed_until >= $1))) c`;
/**
 * Ranked before locking, then locked oldest first: a row another claim holds is skipped, not
 * waited for, and one that changed since (claimed, or put off) is left. Two claims at the same
 * moment rank the same rows, so the second skips them; the cap can be passed only in a race with
 * a lease ending (soft across instances). The claim consumes a retry's request (`manual`), so a
 * retry that comes while this attempt is in flight is seen by FINISH_SQL. Only the delivery rows
 * are locked.
 */
export const CLAIM_SQL = `WITH due AS (
    SELECT d.event_id, d.endpoint_id FROM (${CANDIDATES_SQL}) r
    JOIN webhook_deliveries d ON d.event_id = r.event_id AND d.endpoint_id = r.endpoint_id
    WHERE d.status = 'pending' AND d.next_attempt_at <= $1
      AND (d.claimed_until IS NULL OR d.claimed_until < $1)
    ORDER BY r.next_attempt_at LIMIT $2 FOR UPDATE OF d SKIP LOCKED)
  UPDATE webhook_deliveries d SET claimed_until = $3, claim_token = $4, manual = false
  FROM due WHERE d.event_id = due.event_id AND d.endpoint_id = due.endpoint_id`;
export const CLAIMED_SQL = `SELECT d.event_id AS "eventId", d.endpoint_id AS "endpointId", d.attempts,
    e.type, e.payload, e.data_key_id AS "dataKeyId", w.url, w.org_id AS "orgId",
    w.secret_encrypted AS "secretEncrypted", w.previous_secret_encrypted AS "previousSecretEncrypted",
    w.previous_secret_expires_at AS "previousSecretExpiresAt"
  FROM webhook_deliveries d JOIN outgoing_events e ON e.id = d.event_id
  JOIN webhook_endpoints w ON w.id = d.endpoint_id WHERE d.claim_token = $1`;
/**
 * Records the attempt if the lease is still ours. A retry asked during the attempt (`manual`
 * set again) keeps the delivery pending and due at the retry's time, so one attempt follows the
 * other, never beside it; $9 false (a disabled endpoint) drops that retry.
 */
export const FINISH_SQL = `UPDATE webhook_deliveries SET
    status = CASE WHEN manual AND $9 THEN 'pending' ELSE $3::varchar END,
    next_attempt_at = CASE WHEN manual AND $9 THEN next_attempt_at ELSE $6 END,
    attempts = attempts + 1, last_status_code = $4, last_error = $5, delivered_at = $7,
    claimed_until = NULL, claim_token = NULL, manual = manual AND $9
  WHERE event_id = $1 AND endpoint_id = $2 AND claim_token = $8 RETURNING status`;
export const SETTLE_SQL = `UPDATE outgoing_events SET settled_at = $2 WHERE id = $1 AND settled_at IS NULL
  AND NOT EXISTS (SELECT 1 FROM webhook_deliveries WHERE event_id = $1 AND status <> 'delivered')`;
export const FAILING_SQL = `UPDATE webhook_endpoints SET failing_since = COALESCE(failing_since, $2)
  WHERE id = $1 RETURNING failing_since AS "failingSince"`;
/**
 * What a disabled endpoint had pending is failed (not sent on enabling again), except its test
 * calls; attempts in flight (a live lease) are left to FINISH, which sees the endpoint disabled.
 */
export const FAIL_PENDING_SQL = `UPDATE webhook_deliveries d SET status = 'failed', next_attempt_at = NULL,
    manual = false, claimed_until = NULL, claim_token = NULL,
    last_error = COALESCE(d.last_error, 'endpoint_disabled')
  FROM outgoing_events e
  WHERE d.endpoint_id = $1 AND d.status = 'pending' AND e.id = d.event_id AND e.type <> ${TEST}
    AND (d.claimed_until IS NULL OR d.claimed_until < $2)`;
