import { ADVISORY_LOCK } from '../../database/advisory-locks';
import { deviceThresholdSql } from '../../org/org.sql';
import { eachRowStatement } from '../../outgoing-webhook/outbox/event-outbox.sql';
import { deviceEventSql } from '../device-events';

/**
 * The SQL of device liveness (docs/devices.md, "Liveness"), constant statements built once
 * (docs/decisions/0012-constant-sql-on-hot-paths.md). Every time is a parameter: the Clock's.
 */

/**
 * A timestamptz as the API writes it, ISO 8601 in UTC with milliseconds, made by PostgreSQL: what
 * `Date#toISOString` gives for the Date the driver would parse (both cut microseconds off, never
 * round). Parsing every time into a Date only to print it again was a tenth of the list's CPU
 * (a CPU profile of the route). NULL stays NULL.
 */
export const isoText = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** How far above the low mark a report must be to clear the flag (contract section 10). */
const BATTERY_CLEAR_POINTS = 10;

export const DEVICE_HEALTHS = ['online', 'offline', 'never_seen'] as const;
export type DeviceHealth = (typeof DEVICE_HEALTHS)[number];

/** A device's health at `now` (the parameter named): from the stored deadline alone. */
export const healthSql = (now: string): string =>
  `CASE WHEN last_seen_at IS NULL THEN 'never_seen' WHEN offline_after <= ${now}::timestamptz
    THEN 'offline' ELSE 'online' END`;

/**
 * The organization's active devices by health at `$2` (the list's own CASE, so the two never
 * disagree) and those whose last reported battery is under `$3` (the low mark), for org `$1`: one
 * pass over the org's rows, found through IDX_devices_org_device_id. Deactivated devices are not
 * counted: they will never report again, so they would only swell `offline`.
 */
export const DEVICE_SUMMARY_SQL = `SELECT
    count(*) FILTER (WHERE health = 'online')::int AS online,
    count(*) FILTER (WHERE health = 'offline')::int AS offline,
    count(*) FILTER (WHERE health = 'never_seen')::int AS "neverSeen",
    count(*) FILTER (WHERE battery_pct < $3::int)::int AS "batteryLow"
  FROM (SELECT ${healthSql('$2')} AS health, battery_pct FROM devices
    WHERE org_id = $1 AND status = 'active') d`;

/** What a liveness event says of the device at `health`, from the row `d` (contract section 10). */
const livenessData = (health: DeviceHealth): string =>
  deviceEventSql('d.', {
    health: `'${health}'::text`,
    last_seen_at: isoText('d.last_seen_at'),
    battery_pct: 'd.battery_pct',
  });

/**
 * One batch of the pass, the devices and their `device.offline` events in one statement (so one
 * transaction): under the pass's transaction-level advisory lock (not taken, nothing is
 * due), the devices whose deadline passed and that were not reported yet, oldest deadline first
 * (`$2` of them), marked offline at `$1`. The CTE's conditions are the partial index
 * IDX_devices_liveness_due's, so the pass reads a range of that index, never the table (the bench
 * EXPLAINs this statement); SKIP LOCKED leaves a row a heartbeat holds to the next pass.
 */
export const LIVENESS_PASS_SQL = eachRowStatement(
  `lock AS (SELECT pg_try_advisory_xact_lock(${ADVISORY_LOCK.deviceLiveness}) AS taken),
  due AS (SELECT id FROM devices
    WHERE (SELECT taken FROM lock) AND offline_after <= $1::timestamptz AND offline_since IS NULL
      AND status = 'active' AND offline_after IS NOT NULL
    ORDER BY offline_after LIMIT $2 FOR UPDATE SKIP LOCKED),
  change AS (UPDATE devices d SET offline_since = $1::timestamptz FROM due WHERE d.id = due.id
    RETURNING d.org_id, ${livenessData('offline')} AS data)`,
  2,
);

/** A contact's deadline: now plus the organization's threshold in force (`$3` the default). */
const DEADLINE = `$2::timestamptz + ${deviceThresholdSql('d.org_id', '$3')} * interval '1 second'`;

/** What every contact writes: $2 now, $4 firmware, $5 battery (null: not reported). */
const CONTACT_SET = `last_seen_at = $2::timestamptz, offline_after = ${DEADLINE},
  firmware_version = COALESCE($4::varchar, d.firmware_version),
  battery_pct = COALESCE($5::smallint, d.battery_pct)`;

/**
 * The battery rule (contract section 10) over the row `d`, a report and the low mark (SQL): a
 * report under the mark while not flagged `falls` (and sends `device.battery_low`); the flag stays
 * until a report at least BATTERY_CLEAR_POINTS above the mark.
 */
function batteryRule(report: string, mark: string): { falls: string; lowAfter: string } {
  const falls = `(NOT d.battery_low AND COALESCE(${report}::int < ${mark}::int, false))`;
  const clears = `COALESCE(${report}::int >= ${mark}::int + ${BATTERY_CLEAR_POINTS}, false)`;
  return { falls, lowAfter: `(${falls} OR (d.battery_low AND NOT ${clears}))` };
}
const CONTACT_BATTERY = batteryRule('$5', '$6');

/**
 * A contact that crosses no line: the device was not reported offline and its battery does not
 * fall under `$6` (the low mark). A report well above the mark clears the flag here, without an
 * event. No row back: the slow path's turn (device-presence.service.ts).
 */
export const CONTACT_FAST_SQL = `UPDATE devices d SET ${CONTACT_SET},
    battery_low = ${CONTACT_BATTERY.lowAfter}
  WHERE d.id = $1 AND d.offline_since IS NULL AND NOT ${CONTACT_BATTERY.falls}
  RETURNING 1 AS one`;

/** The slow path's row, locked (`$1`), and what crossed: `$2` battery, `$3` the low mark. */
export const CONTACT_LOCK_SQL = `SELECT d.offline_since IS NOT NULL AS "wasOffline",
  ${batteryRule('$2', '$3').falls} AS "batteryFalls" FROM devices d WHERE d.id = $1 FOR UPDATE`;

/** The slow path's write (the fast path's parameters) and its events' organization and data. */
export const CONTACT_SLOW_SQL = `UPDATE devices d SET ${CONTACT_SET}, offline_since = NULL,
    battery_low = ${CONTACT_BATTERY.lowAfter}
  WHERE d.id = $1 RETURNING d.org_id AS "orgId", ${livenessData('online')} AS data`;

/** Deadlines after an organization's threshold changed: last contact plus the one in force. */
export const RECOMPUTE_DEADLINES_SQL = `UPDATE devices d SET
    offline_after = d.last_seen_at + ${deviceThresholdSql('$1::uuid', '$2')} * interval '1 second'
  WHERE d.org_id = $1 AND d.last_seen_at IS NOT NULL`;
