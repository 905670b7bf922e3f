import { Injectable, Logger } from '@nestjs/common';
import type Stripe from 'stripe';
import type { EntityManager } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import type { HandledEvent, ProcessorEventHandler } from '../../processor/processor-event.handler';
import { readEventObject, SUBSCRIPTION_EVENT_READERS } from './subscription-events';
import { SubscriptionLifecycleService } from './subscription-lifecycle.service';
import { SubscriptionErasure } from '../care-data/subscription-erasure.service';

/** Seconds since 1970 that make a valid date (a signed event's `created` is still outside data). */
const isEpochSeconds = (v: unknown): v is number =>
  typeof v === 'number' && Number.isInteger(v) && v > 0 && v < 1e11;

/** The webhook's handlers for the subscription's event types, one per type. */
@Injectable()
export class SubscriptionEventHandlers {
  private readonly logger = new Logger('SubscriptionEvents');

  constructor(
    private readonly lifecycle: SubscriptionLifecycleService,
    private readonly clock: Clock,
    private readonly erasure: SubscriptionErasure,
  ) {}

  all(): ProcessorEventHandler[] {
    return Object.keys(SUBSCRIPTION_EVENT_READERS).map((type) => ({
      type,
      handle: (event, manager) => this.handle(event, manager),
    }));
  }

  private async handle(event: Stripe.Event, manager: EntityManager): Promise<HandledEvent> {
    const read = readEventObject(event.type, event.data.object);
    if (!read) return { outcome: 'ignored' };
    const createdAt = isEpochSeconds(event.created)
      ? new Date(event.created * 1000)
      : this.clock.now();
    const result = await this.lifecycle.apply(manager, {
      ...read,
      eventId: event.id,
      type: event.type,
      createdAt,
      source: 'webhook',
    });
    // Ids only: customer details never reach the logs. An event that names nothing we know is an
    // operator's matter (a wrong product id, a record lost): a line of its own, at warn.
    if (result.outcome === 'unknown_product' || result.outcome === 'unknown_subscription') {
      const { subscriptionId, processorSubscriptionId, product } = read.ref;
      this.logger.warn(
        `event ${event.id} ${event.type}: ${result.outcome} (subscription ${subscriptionId ?? '-'}, processor subscription ${processorSubscriptionId ?? '-'}, product ${product ?? '-'})`,
      );
    }
    // The transition goes on the webhook's access line (ProcessorWebhookService), not a line of its own.
    const moved = result.from !== result.to;
    const { subscriptionId, customerToErase } = result;
    return {
      outcome: result.outcome,
      subscriptionId,
      ...(moved && { from: result.from, to: result.to }),
      ...(subscriptionId &&
        customerToErase && {
          afterCommit: () => this.erasure.deleteAtProcessor(subscriptionId, customerToErase),
        }),
    };
  }
}
