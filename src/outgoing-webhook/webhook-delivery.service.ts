import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { isUUID } from 'class-validator';
import { Repository } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { ErrorCode } from '../common/errors/error-code.enum';
import { decodeKeysetCursor, encodeKeysetCursor } from '../common/pagination/keyset-cursor';
import { EventOutbox } from './event-outbox.service';
import { WebhookDelivery } from './outgoing-webhook-delivery.entity';
import { OutgoingWebhookError } from './outgoing-webhook.error';
import type { WebhookDeliveryDto, WebhookDeliveryListDto } from './webhook-endpoint.dto';
import { WebhookEndpointService } from './webhook-endpoint.service';

interface DeliveryRow extends Omit<WebhookDelivery, 'event' | 'endpoint'> {
  type: string;
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

const readPosition = ({ at, id }: Record<string, unknown>) =>
  typeof at === 'string' && typeof id === 'string' && isUUID(id) && !isNaN(Date.parse(at))
    ? { at, id }
    : undefined;

/** An endpoint's deliveries: the newest-first list and a manual retry. */
@Injectable()
export class WebhookDeliveryService {
  constructor(
    @InjectRepository(WebhookDelivery) private readonly deliveries: Repository<WebhookDelivery>,
    private readonly endpoints: WebhookEndpointService,
    private readonly outbox: EventOutbox,
    private readonly clock: Clock,
  ) {}

  async list(
    orgId: string,
    endpointId: string,
    page: { limit: number; cursor?: string },
  ): Promise<WebhookDeliveryListDto> {
    const endpoint = await this.endpoints.find(orgId, endpointId);
    const after =
      page.cursor === undefined ? undefined : decodeKeysetCursor(page.cursor, readPosition);
    if (page.cursor !== undefined && after === undefined) {
      throw new OutgoingWebhookError(ErrorCode.ValidationFailed, 'Bad cursor.', [
        { field: 'cursor', message: 'cursor is not a next_cursor of this list' },
      ]);
    }
    const rows = await this.deliveries.query<DeliveryRow[]>(LIST_SQL, [
      endpoint.id,
      after?.at ?? null,
      after?.id ?? null,
      page.limit + 1,
    ]);
    const items = rows.slice(0, page.limit);
    const last = items[items.length - 1];
    return {
      items: items.map(view),
      next_cursor:
        rows.length > page.limit
          ? encodeKeysetCursor({ at: last.cursorAt, id: last.eventId })
          : null,
    };
  }

  /** A new attempt now, also for a failed delivery; `orgId` undefined: the command line. */
  async retry(
    orgId: string | undefined,
    endpointId: string,
    eventId: string,
  ): Promise<{ event_id: string }> {
    const endpoint = await this.endpoints.find(orgId, endpointId);
    if (!isUUID(eventId)) throw notFound();
    await this.deliveries.manager.transaction(async (m) => {
      const now = this.clock.now();
      const [, changed] = await m.query<[unknown[], number]>(
        `UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = $3, manual = true
          WHERE endpoint_id = $1 AND event_id = $2`,
        [endpoint.id, eventId.toLowerCase(), now],
      );
      if (changed === 0) throw notFound();
      await m.query('UPDATE outgoing_events SET settled_at = NULL WHERE id = $1', [eventId]);
      this.outbox.wakeAfterCommit(m);
    });
    return { event_id: eventId.toLowerCase() };
  }
}

const notFound = () =>
  new OutgoingWebhookError(ErrorCode.NotFound, 'No such delivery for this endpoint.');

const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);

function view(r: DeliveryRow): WebhookDeliveryDto {
  return {
    event_id: r.eventId,
    type: r.type,
    status: r.status,
    attempts: r.attempts,
    last_status_code: r.lastStatusCode,
    last_error: r.lastError,
    next_attempt_at: iso(r.nextAttemptAt),
    delivered_at: iso(r.deliveredAt),
    created_at: new Date(r.createdAt).toISOString(),
  };
}
