import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail.service';
import { AuditDetails, cliActor, userActor } from '../audit/audit-event.types';
import { AuditLog } from '../common/logging/audit-log';

/** The audit events of device changes (docs/audit.md). */
export type DeviceAuditAction =
  'device.registered' | 'device.deactivated' | 'device.key_registered' | 'device.key_rotated';

/**
 * The `audit` lines of device security events (docs/operations.md): who, what, from which
 * address. Never a token, an assertion or a key, only a key's thumbprint.
 */
@Injectable()
export class DeviceAudit {
  constructor(
    private readonly audit: AuditLog,
    private readonly trail: AuditTrail,
  ) {}

  /**
   * The change's audit event, in its transaction (`m`). `actor`: an account of the device's
   * organization, or `cli` (or unknown: the command line's callers give none).
   */
  event(
    m: EntityManager,
    action: DeviceAuditAction,
    device: { id: string; deviceId: string; orgId: string },
    actor: string | undefined,
    details: AuditDetails = {},
  ): Promise<void> {
    const by =
      actor === undefined || actor === 'cli'
        ? cliActor()
        : userActor({ id: actor, orgId: device.orgId });
    return this.trail.append(
      {
        action,
        actor: by,
        subject: { type: 'device', id: device.id, orgId: device.orgId },
        details: { device_id: device.deviceId, ...details },
      },
      m,
    );
  }

  /** A device registered or deactivated by an administrator (or the CLI). */
  changed(
    event: 'device_registered' | 'device_deactivated',
    entry: { deviceId: string; orgId: string; actor: string },
  ): void {
    const msg = event === 'device_registered' ? 'device registered' : 'device deactivated';
    this.audit.record(event, msg, {
      device_id: entry.deviceId,
      org_id: entry.orgId,
      actor: entry.actor,
    });
  }

  /** A token request refused; `reason` is what the 401 does not say. */
  tokenRefused(deviceId: string, reason: string): void {
    this.audit.record('device_token_refused', `device token refused: ${reason}`, {
      device_id: deviceId.slice(0, 128),
      reason,
    });
  }

  /** A device's public key set or replaced by an administrator. */
  keySet(entry: {
    deviceId: string;
    orgId: string;
    actor: string;
    thumbprint: string;
    previous: string | null;
  }): void {
    const rotated = entry.previous !== null;
    this.audit.record(
      rotated ? 'device_key_rotated' : 'device_key_registered',
      rotated ? 'device key rotated' : 'device key registered',
      {
        device_id: entry.deviceId,
        org_id: entry.orgId,
        actor: entry.actor,
        thumbprint: entry.thumbprint,
        previous_thumbprint: entry.previous,
      },
    );
  }
}
