import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { AppConfig } from '../config/app-config';
import { statementRows } from '../database/statement-rows';
import { EventOutbox } from '../outgoing-webhook/outbox/event-outbox.service';
import type { OpenKey } from '../personal-data/personal-data.service';
import { heldByAnother, isLive, returnRequested } from './subscription-device-holds';
import { SubscriptionPersonalData } from './subscription-personal.service';
import type { SubscriptionRecord, SubscriptionStatus } from './subscription.entity';

/** The device let go of: its columns cleared, `personal` resealed without the tracking number. */
const RELEASE_SQL = `UPDATE subscriptions SET device_id = NULL, device_assigned_at = NULL,
  device_activated_at = NULL, device_carrier = NULL, personal = $2, updated_at = $3 WHERE id = $1`;

/**
 * What a status change does to the record's device (contract section 10, docs/checkout.md), in
 * the lifecycle's transaction, under the record's lock: a record that ends as `canceled` asks the
 * fulfilment team for the device back (never deactivating it); a record coming back to live whose
 * device another live record now holds lets go of it, since the unique index allows one holder.
 */
@Injectable()
export class SubscriptionDeviceCustody {
  constructor(
    private readonly personalData: SubscriptionPersonalData,
    private readonly outbox: EventOutbox,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /**
   * Before the move to `to`: true when the record let go of its device (`sub` is changed to
   * match, so the caller reseals and reports it without the device).
   */
  async beforeMove(
    m: EntityManager,
    sub: SubscriptionRecord,
    key: OpenKey | null,
    to: SubscriptionStatus,
  ): Promise<boolean> {
    if (!sub.deviceId || isLive(sub.status) || !isLive(to)) return false;
    if (!(await heldByAnother(m, sub.deviceId, sub.id))) return false;
    sub.trackingNumber = null;
    const personal = key ? this.personalData.seal(key, sub) : null;
    await statementRows(m, RELEASE_SQL, [sub.id, personal, this.clock.now()]);
    Object.assign(sub, {
      deviceId: null,
      deviceAssignedAt: null,
      deviceActivatedAt: null,
      deviceCarrier: null,
      personal,
    });
    return true;
  }

  /** After the move: a record now `canceled` that holds a device asks for it back. */
  async afterMove(m: EntityManager, sub: SubscriptionRecord, to: SubscriptionStatus) {
    const orgId = this.config.subscriptions.fulfilmentOrgId;
    if (to !== 'canceled' || !sub.deviceId || !orgId) return;
    await this.outbox.record(m, returnRequested(orgId, sub.deviceId, sub.id));
  }
}
