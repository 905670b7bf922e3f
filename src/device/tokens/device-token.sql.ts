/**
 * The device token's statements, constant (docs/decisions/0012-constant-sql-on-hot-paths.md), in a
 * file of their own so the bench's reference runs the same SQL without the service's modules.
 */

/** Only what the check and the token need. */
export const DEVICE_CLAIM_SQL = `SELECT id, device_id AS "deviceId", org_id AS "orgId", model, provider, status,
  public_key AS "publicKey", public_key_thumbprint AS "publicKeyThumbprint"
  FROM devices WHERE device_id = $1 LIMIT 1`;

/**
 * An assertion's jti, used once: first use wins, atomically across instances (the primary key).
 * The same statement drops this device's own expired ids, so a device that keeps signing in keeps
 * its rows few. $1 the device's row id, $2 the jti, $3 kept until, $4 now.
 */
export const CONSUME_JTI_SQL = `WITH expired AS (
    DELETE FROM device_assertion_jtis WHERE device_pk = $1 AND expires_at < $4
  )
  INSERT INTO device_assertion_jtis (device_pk, jti, expires_at) VALUES ($1, $2, $3)
  ON CONFLICT DO NOTHING RETURNING jti`;
