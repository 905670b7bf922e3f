import { AuditTrail } from '../../audit/audit-trail.service';
import { AppConfig } from '../../config/app-config';
import { subscriptionSubject } from '../subscription-audit';
import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { AuditActor } from '../../audit/audit-event.types';
import { Clock } from '../../common/clock/clock';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { parseUuid } from '../../config/uuid';
import { SubjectDeliveries } from '../../outgoing-webhook/delivery/subject-deliveries.service';
import { EventOutbox } from '../../outgoing-webhook/outbox/event-outbox.service';
import { PersonalData } from '../../personal-data/personal-data.service';
import { PaymentProcessorClient } from '../../processor/payment-processor.client';
import {
  classifyProcessorError,
  describeProcessorError,
  isResourceMissing,
} from '../../processor/processor-errors';
import { NO_PERSONAL_FIELDS } from './subscription-personal-data.service';
import { noSuchSubscription, SubscriptionError } from '../subscription.error';
import { lockSubscription } from '../subscription-row-lock';
import { FINAL_STATUSES } from '../lifecycle/subscription-status.machine';
import { isLive, Subscription, SubscriptionRecord } from '../subscription.entity';

/** A failed deletion is asked again by a reconcile pass no sooner than this (RECHECK_AFTER_MS). */
const STAMP_SQL = 'UPDATE subscriptions SET reconciled_at = $2 WHERE id = $1';
const DONE_SQL = `UPDATE subscriptions SET processor_erasure_pending = false
  WHERE id = $1 AND processor_erasure_pending`;

interface Erased {
  sub: Subscription;
  /** False: erased before, or (retention) not due after all. */
  erasedNow: boolean;
}

interface EraseOptions {
  /** Retention: a record another instance holds is skipped, never waited for. */
  skipLocked?: boolean;
  /** Retention: erase only when this still holds under the lock. */
  due?: (sub: Subscription) => boolean;
}

/**
 * Erasure (contract section 9, docs/privacy.md): on request and by retention alike, the record's
 * data key destroyed (every sealed copy unreadable), its personal fields and hashes cleared, its
 * unsent deliveries failed, `subscription.erased` told, then the processor's customer deleted.
 */
@Injectable()
export class SubscriptionErasure {
  private readonly logger = new Logger('Erasure');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly clock: Clock,
    private readonly personalData: PersonalData,
    private readonly deliveries: SubjectDeliveries,
    private readonly outbox: EventOutbox,
    private readonly processor: PaymentProcessorClient,
    private readonly audit: AuditTrail,
    private readonly config: AppConfig,
  ) {}

  /**
   * The record, erased (again: the same record, nothing told twice). A pending record's hosted
   * checkout is expired first, so no payment completes after the erasure.
   */
  async erase(id: string, actor: AuditActor): Promise<SubscriptionRecord> {
    const canonical = parseUuid(id);
    if (canonical) await this.closeCheckout(canonical);
    const sub = canonical ? (await this.eraseOne(canonical, actor, {}))?.sub : undefined;
    if (!sub) throw noSuchSubscription();
    return Object.assign(sub, NO_PERSONAL_FIELDS);
  }

  /**
   * Expires the open hosted session of a pending record at the processor. A session already
   * complete (a payment under way) is a conflict; one already expired or unknown there is fine.
   * Retention needs none of this: a session lives 24 hours at most, retention a day at least.
   */
  private async closeCheckout(id: string): Promise<void> {
    const sub = await this.dataSource.manager.findOne(Subscription, {
      where: { id },
      select: { id: true, status: true, checkoutSessionId: true, erasedAt: true },
    });
    // Erased already: its checkout was closed then, and erasing twice answers the same record.
    const open = sub?.status === 'pending' && !sub.erasedAt;
    const sessionId = open ? sub.checkoutSessionId : null;
    // Without a key no session can be asked about, nor completed through this service.
    if (!sessionId || !this.processor.configured) return;
    try {
      await this.processor.expireCheckoutSession(sessionId);
      return;
    } catch (err) {
      if (isResourceMissing(err)) return;
      if (classifyProcessorError(err, false) !== 'rejected') throw this.unreachable(id, err);
    }
    // Refused: the session is no longer open. Which way it ended decides.
    let status: string | null;
    try {
      status = (await this.processor.retrieveCheckoutSession(sessionId)).status;
    } catch (err) {
      throw this.unreachable(id, err);
    }
    if (status === 'expired') return;
    throw new SubscriptionError(
      ErrorCode.Conflict,
      status === 'complete'
        ? 'The checkout was completed at the processor: its payment is under way. Erase it once it is settled (canceled at the processor if it was paid).'
        : 'The processor would not close the checkout: nothing was erased.',
    );
  }

  private unreachable(id: string, err: unknown): SubscriptionError {
    const reason = describeProcessorError(err);
    this.logger.warn(`subscription ${id}: checkout not closed, erasure refused: ${reason}`);
    return new SubscriptionError(
      ErrorCode.ProcessorUnavailable,
      'The payment processor could not be reached to close the checkout: nothing was erased. Try again.',
    );
  }

  /** Retention's erasure of one record; false when it was not (locked, erased, or no longer due). */
  async eraseIfDue(id: string, cutoff: Date, actor: AuditActor): Promise<boolean> {
    // An ended record counts from its status change, a pending one from its creation.
    const due = (s: Subscription) =>
      (FINAL_STATUSES.has(s.status) && s.statusChangedAt < cutoff) ||
      (s.status === 'pending' && s.createdAt < cutoff);
    return (await this.eraseOne(id, actor, { skipLocked: true, due }))?.erasedNow ?? false;
  }

  /**
   * Deletes the processor's customer of an erased record and clears its flag; a 404 counts as
   * done. On failure, a warning (ids only) and the flag stays for the reconcile pass.
   */
  async deleteAtProcessor(id: string, customerId: string): Promise<boolean> {
    try {
      await this.processor.deleteCustomer(customerId);
    } catch (err) {
      if (!isResourceMissing(err)) {
        const reason = describeProcessorError(err);
        this.logger.warn(`subscription ${id}: processor customer not deleted yet: ${reason}`);
        await this.dataSource.query(STAMP_SQL, [id, this.clock.now()]);
        return false;
      }
    }
    await this.dataSource.query(DONE_SQL, [id]);
    return true;
  }

  private async eraseOne(
    id: string,
    actor: AuditActor,
    options: EraseOptions,
  ): Promise<Erased | undefined> {
    const result = await this.dataSource.transaction((m) =>
      this.eraseLocked(m, id, actor, options),
    );
    if (!result) return undefined;
    const { sub, erasedNow } = result;
    // Asked again on a second erasure too, while the processor still has the customer.
    if ((erasedNow || !options.due) && sub.processorErasurePending && sub.processorCustomerId) {
      if (await this.deleteAtProcessor(sub.id, sub.processorCustomerId)) {
        sub.processorErasurePending = false;
      }
    }
    return result;
  }

  private async eraseLocked(
    m: EntityManager,
    id: string,
    actor: AuditActor,
    { skipLocked, due }: EraseOptions,
  ): Promise<Erased | undefined> {
    const sub = await lockSubscription(m, id, { skipLocked });
    if (!sub) return undefined;
    if (due && !due(sub)) return { sub, erasedNow: false };
    // A live record is still billed: erasing it would leave the processor charging a customer we
    // no longer know. Checked before "erased": a payment that completed after the erasure bills too.
    if (isLive(sub.status)) {
      throw new SubscriptionError(
        ErrorCode.Conflict,
        'The subscription is still billed: cancel it at the processor first, then erase it.',
      );
    }
    if (sub.erasedAt) return { sub, erasedNow: false };
    const now = this.clock.now();
    await this.personalData.destroy(id, m);
    const patch = {
      personal: null,
      emailHash: null,
      customerEmailHash: null,
      erasedAt: now,
      processorErasurePending: sub.processorCustomerId !== null,
      updatedAt: now,
    };
    await m.update(Subscription, id, patch);
    await this.deliveries.failPendingOf(m, id, now);
    const data = { id, erased_at: now.toISOString() };
    await this.outbox.record(m, { type: 'subscription.erased', data, subjectId: id });
    await this.audit.append(
      {
        action: 'subscription.erased',
        actor,
        subject: subscriptionSubject(this.config, id),
        details: { reason: actor.type === 'system' ? 'retention' : 'request' },
      },
      m,
    );
    return { sub: Object.assign(sub, patch), erasedNow: true };
  }
}
