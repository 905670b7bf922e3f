import type { DeliveryRow } from '../delivery/webhook-delivery.service';
import { WebhookDeliveryDto } from './webhook-endpoint.dto';

describe('WebhookDeliveryDto.from', () => {
  const row: DeliveryRow = {
    eventId: '0b6f8d2e-3c1a-4e5b-9f7d-2a8c6e4b1d03',
    status: 'pending',
    attempts: 1,
    lastStatusCode: 500,
    lastError: 'HTTP 500',
    nextAttemptAt: new Date('2026-01-01T00:05:00Z'),
    deliveredAt: null,
    createdAt: new Date('2026-01-01T00:00:00Z'),
    type: 'device.registered',
    cursorAt: '2026-01-01T00:00:00.000000Z',
  };

  it('writes timestamps in ISO 8601, Dates and strings alike, and keeps nulls', () => {
    const fromStrings = WebhookDeliveryDto.from({
      ...row,
      nextAttemptAt: '2026-01-01 00:05:00+00',
      createdAt: '2026-01-01T00:00:00Z',
    });
    for (const dto of [WebhookDeliveryDto.from(row), fromStrings]) {
      expect(dto).toEqual({
        event_id: row.eventId,
        type: 'device.registered',
        status: 'pending',
        attempts: 1,
        last_status_code: 500,
        last_error: 'HTTP 500',
        next_attempt_at: '2026-01-01T00:05:00.000Z',
        delivered_at: null,
        created_at: '2026-01-01T00:00:00.000Z',
      });
    }
  });
});
