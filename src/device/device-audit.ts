import { Injectable, Logger } from '@nestjs/common';

/**
 * The `audit` lines of device security events (CONTRACT.md section 7): who, what, from which
 * address. Never a token, an assertion or a key, only a key's thumbprint.
 */
@Injectable()
export class DeviceAudit {
  private readonly logger = new Logger('audit');

  /** A token request refused; `reason` is what the 401 does not say. */
  tokenRefused(deviceId: string, reason: string, address: string | undefined): void {
    this.logger.log({
      msg: `device token refused: ${reason}`,
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
