import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AuditTrail } from '../audit/audit-trail.service';
import { AuditDetails, cliActor, userActor } from '../audit/audit-event.types';
import { AuditLog } from '../common/logging/audit-log';

/** The audit events of device changes (docs/audit.md). */
export type DeviceAuditAction =
  'device.registered' | 'device.deactivated' | 'device.key_registered' | 'device.key_rotated';

/** Device ids per batch audit event: the trail's list limit (audit-chain.ts). */
const BATCH_AUDIT_IDS = 500;

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

  /**
   * The audit events of a batch registration (DeviceBatch), in its transaction: one per slice of
   * at most BATCH_AUDIT_IDS devices (the trail's lists hold 500), subject the organization, not
   * one per device (a thousand chained appends would hold the chain's lock for the whole batch);
   * and one `audit` line naming the count.
   */
  async batchRegistered(
    m: EntityManager,
    orgId: string,
    created: { deviceId: string; keyed: boolean }[],
    actor: string | undefined,
  ): Promise<void> {
    const by =
      actor === undefined || actor === 'cli' ? cliActor() : userActor({ id: actor, orgId });
    for (let at = 0; at < created.length; at += BATCH_AUDIT_IDS) {
      const slice = created.slice(at, at + BATCH_AUDIT_IDS);
      await this.trail.append(
        {
          action: 'device.batch_registered',
          actor: by,
          subject: { type: 'organization', id: orgId, orgId },
          details: {
            count: created.length,
            device_ids: slice.map((d) => d.deviceId),
            with_key: slice.filter((d) => d.keyed).length,
          },
        },
        m,
      );
    }
    this.audit.record('devices_registered', 'devices registered in bulk', {
      org_id: orgId,
      count: created.length,
      actor: actor ?? 'cli',
    });
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
