import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { EventOutbox } from '../../outgoing-webhook/outbox/event-outbox.service';
import { returnRequested } from './subscription-device-holds';
import type { SubscriptionRecord, SubscriptionStatus } from '../subscription.entity';

/**
 * What a status change does to the record's device (contract section 10, docs/checkout.md), in
 * the lifecycle's transaction: a record that ends as `canceled` asks the fulfilment team for the
 * device back, never deactivating it. No record comes back to `paid`/`past_due` once it left them
 * (the status rules keep `canceled`, `expired` and `payment_failed` final), so a status change
 * never meets the one-holder index UQ_subscriptions_live_device.
 */
@Injectable()
export class SubscriptionDeviceCustody {
  constructor(
    private readonly outbox: EventOutbox,
    private readonly config: AppConfig,
  ) {}

  /** After the move: a record now `canceled` that holds a device asks for it back. */
  async afterMove(m: EntityManager, sub: SubscriptionRecord, to: SubscriptionStatus) {
    const orgId = this.config.subscriptions.fulfilmentOrgId;
    if (to !== 'canceled' || !sub.deviceId || !orgId) return;
    await this.outbox.record(m, returnRequested(orgId, sub.deviceId, sub.id));
  }
}
