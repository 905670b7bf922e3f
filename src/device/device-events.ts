import type { OrgOutgoingEvent } from '../outgoing-webhook/outbox/event-outbox.service';
import { jsonObjectSql } from '../outgoing-webhook/outbox/event-outbox.sql';
import type { Device } from './device.entity';

/**
 * What an organization's tools hear of a device (docs/outgoing-webhooks.md): the one shape of
 * every `device.*` event's data, each key with the Device property it reads. A key is also the
 * devices column of that property, so the same shape is made in SQL (deviceEventSql).
 */
const DEVICE_FIELDS = {
  device_id: 'deviceId',
  org_id: 'orgId',
  model: 'model',
  provider: 'provider',
  status: 'status',
} as const satisfies Record<string, keyof Device>;

/** The fields every device event names the device by. */
type DeviceFacts = Pick<Device, (typeof DEVICE_FIELDS)[keyof typeof DEVICE_FIELDS]>;

/** A device event; liveness events add theirs (`extra`) after the device's fields. */
export function deviceEvent(
  type: OrgOutgoingEvent['type'],
  d: DeviceFacts,
  extra: object = {},
): OrgOutgoingEvent {
  const data: Record<string, unknown> = {};
  for (const [key, property] of Object.entries(DEVICE_FIELDS)) data[key] = d[property];
  return { type, orgId: d.orgId, data: { ...data, ...extra } };
}

/**
 * The same data as JSON text made by PostgreSQL from a devices row (`p`: its alias and a dot),
 * `extra` as SQL after the device's fields: an event built by its change's own statement.
 */
export function deviceEventSql(p: string, extra: Record<string, string>): string {
  const device = Object.fromEntries(Object.keys(DEVICE_FIELDS).map((key) => [key, `${p}${key}`]));
  return jsonObjectSql({ ...device, ...extra });
}
