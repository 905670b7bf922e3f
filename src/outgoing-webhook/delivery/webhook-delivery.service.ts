import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { EntityManager, Repository } from 'typeorm';
import { Clock } from '../../common/clock/clock';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { parseUuid } from '../../config/uuid';
import {
  type KeysetOrder,
  keysetPage,
  type PageRequest,
} from '../../common/pagination/keyset-page';
import { CURSOR_FIELD, cursorReader } from '../../common/pagination/keyset-cursor';
import type { Page } from '../../common/pagination/page';
import { EventOutbox } from '../outbox/event-outbox.service';
import { WebhookDelivery } from './outgoing-webhook-delivery.entity';
import { OutgoingWebhookError } from '../outgoing-webhook.error';
import { ERASED_ERROR, sendable } from '../outgoing-webhook.types';
import { PersonalData } from '../../personal-data/personal-data.service';
import { WebhookEndpointService } from '../endpoints/webhook-endpoint.service';

/**
 * A row of `LIST_SQL`: the listed columns of the delivery, with its event's type. Raw SQL skips
 * TypeORM's hydration, so a timestamp may come as the driver's string as well as a Date.
 */
export interface DeliveryRow extends Pick<
  WebhookDelivery,
  'eventId' | 'status' | 'attempts' | 'lastStatusCode' | 'lastError'
> {
  nextAttemptAt: Date | string | null;
  deliveredAt: Date | string | null;
  createdAt: Date | string;
  type: string;
  /** created_at to the microsecond, as text: through a JS Date the cursor would lose digits. */
  cursorAt: string;
}

const LIST_SQL = `SELECT d.event_id AS "eventId", d.status, d.attempts,
    d.last_status_code AS "lastStatusCode", d.last_error AS "lastError",
    d.next_attempt_at AS "nextAttemptAt", d.delivered_at AS "deliveredAt",
    d.created_at AS "createdAt", e.type,
    to_char(d.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS "cursorAt"
  FROM webhook_deliveries d JOIN outgoing_events e ON e.id = d.event_id
  WHERE d.endpoint_id = $1 AND ($2::timestamptz IS NULL
    OR (d.created_at, d.event_id) < ($2::timestamptz, $3::uuid))
  ORDER BY d.created_at DESC, d.event_id DESC LIMIT $4`;

/** Newest first by (created_at, event_id). */
const DELIVERY_ORDER: KeysetOrder<DeliveryRow, { at: string; id: string }> = {
  positionOf: (r) => ({ at: r.cursorAt, id: r.eventId }),
  read: cursorReader({ at: CURSOR_FIELD.time, id: CURSOR_FIELD.uuid }),
};

/** An endpoint's deliveries: the newest-first list and a manual retry. */
@Injectable()
export class WebhookDeliveryService {
  constructor(
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    private readonly endpoints: WebhookEndpointService,
    private readonly outbox: EventOutbox,
    private readonly clock: Clock,
    private readonly personalData: PersonalData,
  ) {}

  /** The endpoint's 404 comes before the cursor's 400, as it always has. */
  async list(orgId: string, endpointId: string, page: PageRequest): Promise<Page<DeliveryRow>> {
    const endpoint = await this.endpoints.find(orgId, endpointId);
    return keysetPage(page, DELIVERY_ORDER, (after, take) =>
      this.deliveries.query<DeliveryRow[]>(LIST_SQL, [
        endpoint.id,
        after?.at ?? null,
        after?.id ?? null,
        take,
      ]),
    );
  }

  /**
   * A new attempt now, also for a failed delivery; `orgId` undefined: the command line. Returns
   * the event's id in its stored (lower-case) form. An erased subscription's event is `409`: its
   * body is gone with the key (contract section 9). A disabled endpoint is sent nothing but its
   * test calls, so a retry there is `409 conflict` (enable it first), never queued: a queued one
   * would fire, unannounced, whenever someone enabled the endpoint. During an attempt in flight
   * the retry is kept and made right after it, never beside it (the worker's FINISH_SQL).
   */
  async retry(orgId: string | undefined, endpointId: string, eventId: string): Promise<string> {
    const endpoint = await this.endpoints.find(orgId, endpointId);
    const id = parseUuid(eventId);
    if (!id) throw notFound();
    await this.deliveries.manager.transaction(async (m) => {
      // Endpoint row first, as the worker locks (a disabling waits for this retry, or it for that).
      const [current] = await m.query<{ enabled: boolean }[]>(
        'SELECT enabled FROM webhook_endpoints WHERE id = $1 FOR SHARE',
        [endpoint.id],
      );
      const [delivery] = await m.query<DeliveryToRetry[]>(
        `SELECT e.type, e.data_key_id AS "dataKeyId", d.last_error AS "lastError"
          FROM webhook_deliveries d JOIN outgoing_events e ON e.id = d.event_id
          WHERE d.endpoint_id = $1 AND d.event_id = $2`,
        [endpoint.id, id],
      );
      if (!current || !delivery) throw notFound();
      if (await this.erased(m, delivery)) {
        throw new OutgoingWebhookError(
          ErrorCode.Conflict,
          "The event's subscription was erased: its body can no longer be sent.",
        );
      }
      if (!sendable(current.enabled, delivery.type)) {
        throw new OutgoingWebhookError(
          ErrorCode.Conflict,
          'The endpoint is disabled and is sent nothing: enable it, then retry. (A test call works while it is disabled.)',
        );
      }
      await m.query(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3, manual = true
          WHERE endpoint_id = $1 AND event_id = $2`,
        [endpoint.id, id, this.clock.now()],
      );
      await m.query('UPDATE outgoing_events SET settled_at = NULL WHERE id = $1', [id]);
      this.outbox.wakeAfterCommit(m);
    });
    return id;
  }

  /** Its owner erased: the body's data key is gone (or the delivery already ended so). */
  private async erased(m: EntityManager, d: DeliveryToRetry): Promise<boolean> {
    if (d.lastError === ERASED_ERROR) return true;
    return d.dataKeyId !== null && (await this.personalData.keyOf(d.dataKeyId, m)) === null;
  }
}

interface DeliveryToRetry {
  type: string;
  dataKeyId: string | null;
  lastError: string | null;
}

const notFound = () =>
  new OutgoingWebhookError(ErrorCode.NotFound, 'No such delivery for this endpoint.');
