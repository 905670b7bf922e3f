import { Injectable } from '@nestjs/common';
import { AuditLog } from '../common/logging/audit-log';

/**
 * The `audit` lines of device security events (docs/operations.md): who, what, from which
 * address. Never a token, an assertion or a key, only a key's thumbprint.
 */
@Injectable()
export class DeviceAudit {
  constructor(private readonly audit: AuditLog) {}

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
