import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import {
  EventOutbox,
  outboxStatement,
} from '../../src/outgoing-webhook/outbox/event-outbox.service';
import { jsonObjectSql } from '../../src/outgoing-webhook/outbox/event-outbox.sql';
import { addEndpoint, WebhookWorld, webhookWorld } from './support';

// Any subscriptions row would do: the statement is the outbox's, not the lifecycle's.
const TOUCH = outboxStatement(
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
    const dataSource = w.t.app.get(DataSource);
    const event = {
      type: 'subscription.paid' as const,
      data: { id: 'none' },
      subjectId: randomUUID(),
    };
    const change = { statement: TOUCH, params: [new Date(), randomUUID()] };
    // Outside a transaction (through TypeORM) and inside one (on the transaction's connection).
    const alone = await outbox.recordWith(dataSource.manager, change, event);
    const inside = await dataSource.transaction((m) => outbox.recordWith(m, change, event));
    expect([alone, inside]).toEqual([undefined, undefined]);
    const [counted] = await dataSource.query<{ events: number }[]>(
      `SELECT count(*)::int AS events FROM outgoing_events WHERE payload LIKE '%"id":"none"%'`,
    );
    expect(counted.events).toBe(0);
  });

  it('stores the event and its delivery when the UPDATE matched its row', async () => {
    const outbox = w.t.app.get(EventOutbox);
    const dataSource = w.t.app.get(DataSource);
    const [sub] = await dataSource.query<{ id: string }[]>(
      `INSERT INTO subscriptions (id, product, source, lease_cents, monthly_cents, currency, created_at,
        updated_at, status_changed_at)
       VALUES ($1, 'lease', 'test', 24900, 5000, 'usd', now(), now(), now()) RETURNING id`,
      [randomUUID()],
    );
    const event = { type: 'subscription.paid' as const, data: { id: sub.id }, subjectId: sub.id };
    const change = { statement: TOUCH, params: [new Date(), sub.id] };
    const id = await dataSource.transaction((m) => outbox.recordWith(m, change, event));
    expect(await stored(id!)).toEqual({ events: 1, deliveries: 1 });
  });

  it('stores many events in one statement, each with the deliveries its organization subscribed to', async () => {
    const outbox = w.t.app.get(EventOutbox);
    const dataSource = w.t.app.get(DataSource);
    const elsewhere = randomUUID(); // an organization id with no endpoints
    const data = (n: number) => ({ device_id: `many-${n}` });
    const stored = await dataSource.transaction((m) =>
      outbox.recordMany(m, [
        { type: 'device.offline', orgId: w.admin.orgId, data: data(1) },
        { type: 'device.online', orgId: w.admin.orgId, data: data(2) },
        { type: 'device.offline', orgId: elsewhere, data: data(3) },
      ]),
    );
    expect(stored).toBe(3);
    const rows = await dataSource.query<{ device: string; deliveries: number; settled: boolean }[]>(
      `SELECT e.payload::jsonb -> 'data' ->> 'device_id' AS device, e.settled_at IS NOT NULL AS settled,
        (SELECT count(*)::int FROM webhook_deliveries d WHERE d.event_id = e.id) AS deliveries
       FROM outgoing_events e WHERE e.payload LIKE '%"many-%' ORDER BY 1`,
    );
    expect(rows).toEqual([
      { device: 'many-1', deliveries: 1, settled: false },
      { device: 'many-2', deliveries: 1, settled: false },
      { device: 'many-3', deliveries: 0, settled: true },
    ]);
    expect(await outbox.recordMany(dataSource.manager, [])).toBe(0);
  });

  it("makes a body's data in SQL with JSON.stringify's bytes (jsonObjectSql)", async () => {
    const text = 'a "quoted" \\ back\nslash\t\u0001\u001f é ✓ / \u2028 end';
    const sql = `SELECT ${jsonObjectSql({ s: '$1::text', n: '$2::smallint', z: 'NULL::text' })} AS j`;
    const [row] = await w.t.app.get(DataSource).query<{ j: string }[]>(sql, [text, 42]);
    expect(row.j).toBe(JSON.stringify({ s: text, n: 42, z: null }));
  });
});
