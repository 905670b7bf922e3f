import type { OrgOutgoingEvent } from '../../outgoing-webhook/outbox/event-outbox.service';
import { deviceEvent, type DeviceFacts } from '../device-events';

/**
 * The SQL of device liveness (docs/devices.md, "Liveness"), constant statements built once
 * (docs/decisions/0012-constant-sql-on-hot-paths.md). Every time is a parameter: the Clock's.
 */

/**
 * A timestamptz as the API writes it, ISO 8601 in UTC with milliseconds, made by PostgreSQL: what
 * `Date#toISOString` gives for the Date the driver would parse (both cut microseconds off, never
 * round). Parsing every time into a Date only to print it again was a tenth of the list's CPU
 * (`npm run bench:profile`). NULL stays NULL.
 */
export const isoText = (column: string): string =>
  `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** How far above the low mark a report must be to clear the flag (contract section 10). */
export const BATTERY_CLEAR_POINTS = 10;

export const DEVICE_HEALTHS = ['online', 'offline', 'never_seen'] as const;
export type DeviceHealth = (typeof DEVICE_HEALTHS)[number];

/** A device's health at `now` (the parameter named): from the stored deadline alone. */
export const healthSql = (now: string): string =>
  `CASE WHEN last_seen_at IS NULL THEN 'never_seen' WHEN offline_after <= ${now}::timestamptz
    THEN 'offline' ELSE 'online' END`;

/**
 * The devices whose deadline passed and that were not reported yet, oldest deadline first, each
 * marked offline at once. `$1` now, `$2` the batch size. The CTE's conditions are the partial
 * index IDX_devices_liveness_due's, so the pass reads a range of that index, never the table
 * (the bench EXPLAINs this statement); SKIP LOCKED leaves a row a heartbeat holds to the next pass.
 */
export const LIVENESS_DUE_SQL = `WITH due AS (SELECT id FROM devices
    WHERE offline_after <= $1::timestamptz AND offline_since IS NULL AND status = 'active'
      AND offline_after IS NOT NULL
    ORDER BY offline_after LIMIT $2 FOR UPDATE SKIP LOCKED)
  UPDATE devices d SET offline_since = $1::timestamptz FROM due WHERE d.id = due.id
  RETURNING ${eventColumns('d.')}`;

/** What an event about a device's liveness says, as its statements return it. */
export interface LivenessRow extends DeviceFacts {
  lastSeenAt: string | null;
  batteryPct: number | null;
}

function eventColumns(p: string): string {
  return `${p}device_id AS "deviceId", ${p}org_id AS "orgId", ${p}model, ${p}provider,
    ${p}status, ${isoText(`${p}last_seen_at`)} AS "lastSeenAt", ${p}battery_pct AS "batteryPct"`;
}

/** A contact's deadline: now plus the organization's threshold, or the default (`$3`). */
const DEADLINE = `$2::timestamptz + COALESCE((SELECT o.device_offline_after_seconds
    FROM organizations o WHERE o.id = d.org_id), $3::int) * interval '1 second'`;

/** What every contact writes: $2 now, $4 firmware, $5 battery (null: not reported). */
const CONTACT_SET = `last_seen_at = $2::timestamptz, offline_after = ${DEADLINE},
  firmware_version = COALESCE($4::varchar, d.firmware_version),
  battery_pct = COALESCE($5::smallint, d.battery_pct)`;

/**
 * A contact that crosses no line: the device was not reported offline and its battery does not
 * fall under `$6` (the low mark) while not already flagged. A report 10 points above the mark clears
 * the flag here, without an event. No row back: the slow path's turn (device-presence.service.ts).
 */
export const CONTACT_FAST_SQL = `UPDATE devices d SET ${CONTACT_SET},
    battery_low = d.battery_low AND NOT COALESCE($5::int >= $6::int + ${BATTERY_CLEAR_POINTS}, false)
  WHERE d.id = $1 AND d.offline_since IS NULL
    AND NOT (NOT d.battery_low AND COALESCE($5::int < $6::int, false))
  RETURNING 1 AS one`;

/** The slow path's row, locked: what crossed is decided from it. */
export const CONTACT_LOCK_SQL = `SELECT offline_since IS NOT NULL AS "wasOffline",
  battery_low AS "batteryLow" FROM devices WHERE id = $1 FOR UPDATE`;

/** The slow path's write, the flags as decided (`$6` battery_low); the row for the events. */
export const CONTACT_SLOW_SQL = `UPDATE devices d SET ${CONTACT_SET}, offline_since = NULL,
    battery_low = $6::boolean
  WHERE d.id = $1 RETURNING ${eventColumns('d.')}`;

/** Deadlines after an organization's threshold changed: last contact plus the new one. */
export const RECOMPUTE_DEADLINES_SQL = `UPDATE devices SET
    offline_after = last_seen_at + $2::int * interval '1 second'
  WHERE org_id = $1 AND last_seen_at IS NOT NULL`;

/** The event of a liveness change to the device organization's endpoints (contract section 10). */
export function livenessEvent(
  type: 'device.offline' | 'device.online' | 'device.battery_low',
  row: LivenessRow,
  health: DeviceHealth,
): OrgOutgoingEvent {
  const extra = { health, last_seen_at: row.lastSeenAt, battery_pct: row.batteryPct };
  return deviceEvent(type, row, extra);
}
