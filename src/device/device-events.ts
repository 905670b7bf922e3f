import type { OrgOutgoingEvent } from '../outgoing-webhook/outbox/event-outbox.service';
import type { Device } from './device.entity';

/** The fields every device event names the device by. */
export type DeviceFacts = Pick<Device, 'deviceId' | 'orgId' | 'model' | 'provider' | 'status'>;

/**
 * What an organization's tools hear of a device (docs/outgoing-webhooks.md): the one shape of
 * every `device.*` event's data; liveness events add theirs (`extra`) after it.
 */
export function deviceEvent(
  type: OrgOutgoingEvent['type'],
  d: DeviceFacts,
  extra: object = {},
): OrgOutgoingEvent {
  const { deviceId, orgId, model, provider, status } = d;
  return {
    type,
    orgId,
    data: { device_id: deviceId, org_id: orgId, model, provider, status, ...extra },
  };
}
