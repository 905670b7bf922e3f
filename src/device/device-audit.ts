import { Injectable, Logger } from '@nestjs/common';

/**
 * The `audit` lines of device security events (CONTRACT.md section 7): who, what, from which
 * address. Never a token, an assertion or a key, only a key's thumbprint.
 */
@Injectable()
export class DeviceAudit {
  private readonly logger = new Logger('audit');

  /** A device registered or deactivated by an administrator (or the CLI). */
  changed(
    event: 'device_registered' | 'device_deactivated',
    entry: { deviceId: string; orgId: string; actor: string; address?: string },
  ): void {
    this.logger.log({
      msg: event === 'device_registered' ? 'device registered' : 'device deactivated',
      audit: event,
      event,
      device_id: entry.deviceId,
      org_id: entry.orgId,
      actor: entry.actor,
      address: entry.address,
    });
  }

  /** A token request refused; `reason` is what the 401 does not say. */
  tokenRefused(deviceId: string, reason: string, address: string | undefined): void {
    this.logger.log({
      msg: `device token refused: ${reason}`,
      audit: 'device_token_refused',
      event: 'device_token_refused',
      device_id: deviceId.slice(0, 128),
      reason,
      address,
    });
  }

  /** A device's public key set or replaced by an administrator. */
  keySet(entry: {
    deviceId: string;
    orgId: string;
    actor: string;
    thumbprint: string;
    previous: string | null;
    address?: string;
  }): void {
    this.logger.log({
      msg: entry.previous ? 'device key rotated' : 'device key registered',
      audit: entry.previous ? 'device_key_rotated' : 'device_key_registered',
      event: entry.previous ? 'device_key_rotated' : 'device_key_registered',
      device_id: entry.deviceId,
      org_id: entry.orgId,
      actor: entry.actor,
      thumbprint: entry.thumbprint,
      previous_thumbprint: entry.previous,
      address: entry.address,
    });
  }
}
