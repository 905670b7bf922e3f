import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { statementRows } from '../../database/statement-rows';
import { DeviceTokenEvents } from '../../device/tokens/device-token-events.service';
import { EventOutbox } from '../../outgoing-webhook/outbox/event-outbox.service';
import { AWAITING_ACTIVATION_SQL } from './subscription-device-holds';
import { SubscriptionPersonalData } from '../care-data/subscription-personal-data.service';
import { isLive, Subscription } from '../subscription.entity';
import { lockSubscription } from '../subscription-row-lock';
import { SubscriptionService } from '../subscription.service';

/**
 * Activated (contract section 10): the assigned device's first token after its assignment stamps
 * `device_activated_at` and tells `subscription.activated`, once. Told by the token exchange
 * (src/device) after the token is signed, through the listener registered here; a device no live
 * record awaits costs one indexed read.
 */
@Injectable()
export class SubscriptionDevices {
  private readonly logger = new Logger('SubscriptionDevices');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly personalData: SubscriptionPersonalData,
    private readonly outbox: EventOutbox,
    private readonly clock: Clock,
    tokens: DeviceTokenEvents,
  ) {
    tokens.onTokenIssued((deviceId) => this.tokenIssued(deviceId));
  }

  /**
   * Never fails the token: a failure here is logged (ids only) and the device's next token, still
   * finding the record unactivated, tries again.
   */
  async tokenIssued(deviceId: string): Promise<void> {
    try {
      const [row] = await statementRows<{ id: string }>(
        this.dataSource.manager,
        AWAITING_ACTIVATION_SQL,
        [deviceId],
      );
      if (row) await this.dataSource.transaction((m) => this.activate(m, row.id, deviceId));
    } catch (err) {
      const reason = err instanceof Error ? err.name : 'error';
      this.logger.warn(`device ${deviceId}: activation not recorded yet (${reason})`);
    }
  }

  /** Under the record's lock, checked again: two first tokens at once tell it once. */
  private async activate(m: EntityManager, id: string, deviceId: string): Promise<void> {
    const sub = await lockSubscription(m, id);
    if (!sub || sub.deviceId !== deviceId || !isLive(sub.status) || sub.deviceActivatedAt) return;
    const now = this.clock.now();
    await m.update(Subscription, id, { deviceActivatedAt: now, updatedAt: now });
    const key = await this.personalData.keyOf(id, m);
    const record = this.personalData.opened(
      Object.assign(sub, { deviceActivatedAt: now, updatedAt: now }),
      key,
    );
    await this.outbox.record(
      m,
      SubscriptionService.outgoingEvent(record, key, 'subscription.activated'),
    );
  }
}
