import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import type Stripe from 'stripe';
import { DataSource, EntityManager } from 'typeorm';
import { PaymentProcessorClient } from '../processor/payment-processor.client';
import { ProcessorWebhookError } from './processor-webhook.error';
import { ErrorCode } from '../common/errors/error-code.enum';
import { readSignedBody } from './signed-body';
import { Clock } from '../common/clock/clock';
import { AppConfig } from '../config/app-config';
import {
  HandledEvent,
  PROCESSOR_EVENT_HANDLERS,
  ProcessorEventHandler,
} from '../processor/processor-event.handler';
import { isWellFormedEvent } from './processor-webhook-event.shape';
import { AuditLog } from '../common/logging/audit-log';
import type { AccessLine } from '../common/logging/access-line';
import { webhookEvents } from '../common/metrics/metrics';
import { statementRows } from '../database/statement-rows';

/**
 * Constant statements on the hot path: the query builder rebuilt the SQL on every event
 * (docs/decisions/0012-constant-sql-on-hot-paths.md). ON CONFLICT DO NOTHING waits for a
 * concurrent insert of the same id to end.
 */
const RECORD_SQL = `INSERT INTO processed_webhook_events (id, type, outcome, received_at)
  VALUES ($1, $2, 'received', $3) ON CONFLICT DO NOTHING RETURNING id`;
const OUTCOME_SQL = 'UPDATE processed_webhook_events SET outcome = $2 WHERE id = $1';

export interface ProcessorWebhookAck {
  received: true;
}

@Injectable()
export class ProcessorWebhookService {
  private readonly logger = new Logger('Webhook');
  private readonly handlers: Map<string, ProcessorEventHandler>;

  constructor(
    private readonly config: AppConfig,
    private readonly processor: PaymentProcessorClient,
    private readonly clock: Clock,
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(PROCESSOR_EVENT_HANDLERS) handlers: ProcessorEventHandler[],
    private readonly audit: AuditLog,
  ) {
    this.handlers = new Map(handlers.map((h) => [h.type, h]));
  }

  /** Verifies, then records and applies the event once; answers 200 for anything it verified. */
  async receive(
    rawBody: Buffer | undefined,
    signature: string | undefined,
    accessLine: AccessLine,
  ): Promise<ProcessorWebhookAck> {
    // Cleaned, not refused: a signed event is the processor's word, and a 4xx/5xx means retries for days.
    const event = this.read(this.verify(rawBody, signature));
    if (!isWellFormedEvent(event)) {
      // Signed but malformed: storing it would fail every time, and a 5xx means endless retries.
      this.logger.warn(
        'a signed event without a well-formed envelope was acknowledged and ignored',
      );
      webhookEvents.inc({ type: 'malformed', outcome: 'ignored' });
      return { received: true };
    }
    let handled: HandledEvent | 'duplicate';
    try {
      handled = await this.dataSource.transaction((manager) => this.recordOnce(event, manager));
    } catch (err) {
      // Any non-2xx makes the processor deliver the event again later.
      this.logger.error(`event ${event.id} could not be stored: ${String(err)}`);
      this.note(accessLine, event, { outcome: 'failed' });
      webhookEvents.inc({ type: this.typeLabel(event.type), outcome: 'failed' });
      throw new ProcessorWebhookError(
        ErrorCode.InternalError,
        'The event could not be stored; it will be retried.',
      );
    }
    const outcome = handled === 'duplicate' ? handled : handled.outcome;
    if (handled !== 'duplicate') await this.afterCommit(event, handled);
    this.note(accessLine, event, handled === 'duplicate' ? { outcome } : handled);
    webhookEvents.inc({ type: this.typeLabel(event.type), outcome });
    return { received: true };
  }

  /**
   * The event's work after its commit (deleting an erased record's customer). The event is stored
   * and its record marked for that work, so a fault here is the reconcile pass's to retry, not
   * the processor's: it is logged, never answered as a 5xx.
   */
  private async afterCommit(event: Stripe.Event, handled: HandledEvent): Promise<void> {
    try {
      await handled.afterCommit?.();
    } catch (err) {
      this.logger.warn(
        `event ${event.id}: its follow-up failed, reconcile retries it: ${String(err)}`,
      );
    }
  }

  /**
   * What the event did goes on the request's access line (one line per event, not one per step):
   * `event: { id, type, outcome, subscription, from, to }`, the last two when its status moved.
   */
  private note(
    accessLine: AccessLine,
    event: Stripe.Event,
    done: Omit<HandledEvent, 'outcome'> & { outcome: string },
  ) {
    const { outcome, subscriptionId, from, to } = done;
    accessLine.add({
      event: { id: event.id, type: event.type, outcome, subscription: subscriptionId, from, to },
    });
  }

  /** Types we handle by name; the processor's hundreds of others share one label. */
  private typeLabel(type: string): string {
    return this.handlers.has(type) ? type : 'other';
  }

  /** The verified raw body; refused unless it carries a valid signature. */
  private verify(rawBody: Buffer | undefined, signature: string | undefined): Buffer {
    const secrets = this.config.stripe.webhookSecrets;
    if (secrets.length === 0) {
      throw new ProcessorWebhookError(
        ErrorCode.WebhookNotConfigured,
        'The webhook is not configured.',
      );
    }
    if (
      rawBody &&
      signature &&
      this.processor.verifySignature(rawBody, signature, secrets, this.clock.now())
    ) {
      return rawBody;
    }
    webhookEvents.inc({ type: 'unknown', outcome: 'refused' });
    this.audit.record('webhook_signature_refused', 'webhook signature refused', {
      actor: 'processor',
      reason: !rawBody || !signature ? 'missing' : 'wrong_or_too_old',
    });
    throw new ProcessorWebhookError(
      ErrorCode.InvalidSignature,
      'The webhook signature is missing, wrong or too old.',
    );
  }

  /** A signed body that no retry can make readable is a 400, logged: the processor's fault or a leaked secret. */
  private read(rawBody: Buffer): unknown {
    const body = readSignedBody(rawBody);
    if ('value' in body) return body.value;
    this.logger.warn(`a signed body was refused: ${body.problem}`);
    webhookEvents.inc({ type: 'unreadable', outcome: 'refused' });
    throw new ProcessorWebhookError(ErrorCode.ValidationFailed, body.problem);
  }

  /**
   * The event id's insert and the change it causes commit together: a concurrent duplicate waits
   * on the id's unique key, then finds it taken and changes nothing.
   */
  private async recordOnce(
    event: Stripe.Event,
    manager: EntityManager,
  ): Promise<HandledEvent | 'duplicate'> {
    const inserted = await statementRows(manager, RECORD_SQL, [
      event.id,
      event.type.slice(0, 100),
      // From the Clock, as the housekeeping's 90 days are.
      this.clock.now(),
    ]);
    // No RETURNING row when the id was already there.
    if (inserted.length === 0) return 'duplicate';
    const handled = await this.apply(event, manager);
    await statementRows(manager, OUTCOME_SQL, [event.id, handled.outcome]);
    return handled;
  }

  /** One handler per event type; a type no handler claims is acknowledged and changes nothing. */
  private apply(event: Stripe.Event, manager: EntityManager): Promise<HandledEvent> {
    const handler = this.handlers.get(event.type);
    return handler ? handler.handle(event, manager) : Promise.resolve({ outcome: 'ignored' });
  }
}
