import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  EventOutbox,
  outboxUpdateStatement,
} from '../../src/outgoing-webhook/event-outbox.service';
import { addEndpoint, WebhookWorld, webhookWorld } from './support';

// Any subscriptions row would do: the statement is the outbox's, not the lifecycle's.
const TOUCH = outboxUpdateStatement(
  'UPDATE subscriptions SET updated_at = $1 WHERE id = $2 RETURNING 1',
  2,
);

describe('outgoing webhooks: an UPDATE and its event in one statement', () => {
  let w: WebhookWorld;
  beforeAll(async () => {
    w = await webhookWorld();
    await addEndpoint(w.t, w.admin.cookie, { url: w.receiver.url });
  });
  afterAll(() => w.close());

  const stored = async (eventId: string) => {
    const [row] = await w.t.app.get(DataSource).query<{ events: number; deliveries: number }[]>(
      `SELECT (SELECT count(*)::int FROM outgoing_events WHERE id = $1) AS events,
        (SELECT count(*)::int FROM webhook_deliveries WHERE event_id = $1) AS deliveries`,
      [eventId],
    );
    return row;
  };

  it('stores no event (and no delivery) when the UPDATE matched no row', async () => {
    const outbox = w.t.app.get(EventOutbox);
    const manager = w.t.app.get(DataSource).manager;
    const event = { type: 'subscription.paid' as const, data: { id: 'none' } };
    const id = await outbox.recordWith(
      manager,
      { statement: TOUCH, params: [new Date(), randomUUID()] },
      event,
    );
    expect(await stored(id)).toEqual({ events: 0, deliveries: 0 });
  });
});
