import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AuditActor } from '../../audit/audit-event.types';
import { AuditTrail } from '../../audit/audit-trail.service';
import { Clock } from '../../common/clock/clock';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { AppConfig } from '../../config/app-config';
import { parseUuid } from '../../config/uuid';
import { takenIn } from '../../common/errors/database-errors';
import { DeviceService } from '../../device/registry/device.service';
import { EventOutbox } from '../../outgoing-webhook/outbox/event-outbox.service';
import type { ShipDeviceDto } from './ship-device.dto';
import { subscriptionSubject } from '../subscription-audit';
import { heldByAnother, returnRequested } from './subscription-device-holds';
import { SubscriptionPersonalData } from '../care-data/subscription-personal-data.service';
import { noSuchSubscription, SubscriptionError } from '../subscription.error';
import { isLive, Subscription, SubscriptionRecord } from '../subscription.entity';
import { lockSubscription } from '../subscription-row-lock';
import { SubscriptionService } from '../subscription.service';

/** No fulfilment organization, or no such device in it: one answer, nothing of other orgs told. */
const noSuchDevice = () => new SubscriptionError(ErrorCode.NotFound, 'No such device.');

/** The device columns a shipping sets (the tracking number goes sealed, in `personal`). */
type DeviceColumns = Pick<
  Subscription,
  'deviceId' | 'deviceAssignedAt' | 'deviceActivatedAt' | 'deviceCarrier'
>;

/** One shipping, checked outside the transaction (the ids, the device's status). */
interface Order {
  id: string;
  body: ShipDeviceDto;
  orgId: string;
  actor: AuditActor;
}

/**
 * Shipped (contract section 10, docs/checkout.md): a device of the fulfilment organization
 * assigned to a live record, or a replacement unit for it; `subscription.shipped` told, the
 * replaced unit's return asked (`device.return_requested`), the change audited.
 */
@Injectable()
export class SubscriptionShipping {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly devices: DeviceService,
    private readonly personalData: SubscriptionPersonalData,
    private readonly outbox: EventOutbox,
    private readonly audit: AuditTrail,
    private readonly clock: Clock,
    private readonly config: AppConfig,
  ) {}

  /** The record as it now is; the same details again change nothing and tell no one. */
  async ship(id: string, body: ShipDeviceDto, actor: AuditActor): Promise<SubscriptionRecord> {
    const canonical = parseUuid(id);
    if (!canonical) throw noSuchSubscription();
    const orgId = this.config.subscriptions.fulfilmentOrgId;
    if (!orgId) throw noSuchDevice();
    const order: Order = { id: canonical, body, orgId, actor };
    return this.dataSource.transaction((m) => this.shipLocked(m, order));
  }

  private async shipLocked(
    m: EntityManager,
    { id, body, orgId, actor }: Order,
  ): Promise<SubscriptionRecord> {
    const locked = await lockSubscription(m, id);
    if (!locked) throw noSuchSubscription();
    // Share-locked until commit: a deactivation cannot slip in between the check and the shipping.
    const status = await this.devices.statusIn(orgId, body.device_id, m);
    if (!status) throw noSuchDevice();
    const active = status === 'active';
    if (!isLive(locked.status)) {
      throw new SubscriptionError(ErrorCode.Conflict, 'Only a paid or past_due record is shipped.');
    }
    if (!active) throw new SubscriptionError(ErrorCode.Conflict, 'The device is deactivated.');
    if (await heldByAnother(m, body.device_id, id)) throw takenIn('UQ_subscriptions_live_device');
    const key = await this.personalData.keyOf(id, m);
    const record = this.personalData.opened(locked, key);
    // Without a key (erased, then paid again) nothing personal can be stored: no tracking number.
    const tracking = key ? (body.tracking_number ?? null) : null;
    const previous = record.deviceId;
    const sameUnit = previous === body.device_id;
    const carrier = body.carrier ?? null;
    if (sameUnit && record.deviceCarrier === carrier && record.trackingNumber === tracking) {
      await this.remember(m, actor, record, { changed: false, replaced: null });
      return record;
    }
    const now = this.clock.now();
    const columns: DeviceColumns = {
      deviceId: body.device_id,
      // The same unit keeps its dates (new shipping details); a replacement starts again.
      deviceAssignedAt: sameUnit ? record.deviceAssignedAt : now,
      deviceActivatedAt: sameUnit ? record.deviceActivatedAt : null,
      deviceCarrier: carrier,
    };
    const personal = key
      ? this.personalData.seal(key, { ...record, trackingNumber: tracking })
      : null;
    // The unique index is the last word: a lost race is its violation, a 409 (database-errors.ts).
    await m.update(Subscription, id, { ...columns, personal, updatedAt: now });
    const shipped = Object.assign(record, columns, { personal, trackingNumber: tracking });
    shipped.updatedAt = now;
    await this.outbox.record(
      m,
      SubscriptionService.outgoingEvent(shipped, key, 'subscription.shipped'),
    );
    const replaced = sameUnit ? null : previous;
    if (replaced) await this.outbox.record(m, returnRequested(orgId, replaced, id));
    await this.remember(m, actor, shipped, { changed: true, replaced });
    return shipped;
  }

  /**
   * The answer shows the record's personal data, so it is remembered in the same transaction,
   * also when nothing changed; ids only in the details, never the tracking number.
   */
  private remember(
    m: EntityManager,
    actor: AuditActor,
    s: SubscriptionRecord,
    details: { changed: boolean; replaced: string | null },
  ): Promise<void> {
    return this.audit.append(
      {
        action: 'subscription.shipped',
        actor,
        subject: subscriptionSubject(this.config, s.id),
        details: { device_id: s.deviceId, ...details },
      },
      m,
    );
  }
}
