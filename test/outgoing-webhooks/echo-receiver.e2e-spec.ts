import { DataSource } from 'typeorm';
import { DeliveryReasons1796150000000 } from '../../src/database/migrations/1796150000000-DeliveryReasons';
import { emptyDatabase, EmptyDatabase } from '../support/empty-database';
import { newRecord, send } from '../support/subscriptions';
import { eventually } from '../support/webhook-receiver';
import { distinctivePerson, foundIn, paidEvent, personValues } from '../privacy/support';
import { addEndpoint, deliveriesOf, webhookWorld, WebhookWorld } from './support';

/**
 * A receiver may echo the event it was sent: what it answers is never kept (contract section 9,
 * "Never elsewhere"). A delivery keeps the status and the service's own short reason. On an empty
 * database of its own: the migration below rewrites every delivery it finds.
 */
describe('deliveries keep no receiver words', () => {
  let db: EmptyDatabase;
  let w: WebhookWorld;
  const sql = <T>(text: string, params: unknown[] = []) =>
    w.t.app.get(DataSource).query<T[]>(text, params);

  beforeAll(async () => {
    db = await emptyDatabase();
    w = await webhookWorld({ DATABASE_URL: db.url });
    // The echo: the request's own body back, with a 400.
    w.receiver.answer = (d) => ({ status: 400, body: d.body });
  });
  afterAll(async () => {
    await w?.close();
    await db?.stop();
  });

  it('stores http_400 for an echoing receiver: no personal data in the table or the API', async () => {
    const endpoint = await addEndpoint(w.t, w.admin.cookie, { url: w.receiver.url });
    const p = distinctivePerson();
    const r = await newRecord(w.t, { name: p.name, email: p.email });
    await send(w.t, paidEvent(r.sub.id, r.sessionId, p));
    const echoed = await eventually('the paid event echoed', () =>
      w.receiver.of('subscription.paid').find((d) => d.json.data.id === r.sub.id),
    );
    // The echo carried the personal data: the test would see a leak.
    expect(foundIn(echoed.body, personValues(p)).length).toBeGreaterThan(3);
    const eventId = echoed.headers['webhook-id'] as string;
    const listed = await eventually('the attempt recorded', async () =>
      (await deliveriesOf(w.t, w.admin.cookie, endpoint.id)).find(
        (d) => d.event_id === eventId && d.attempts >= 1,
      ),
    );
    expect(listed).toMatchObject({ last_status_code: 400, last_error: 'http_400' });

    const rows = await sql<{ row: string }>('SELECT d::text AS row FROM webhook_deliveries d');
    expect(foundIn(rows.map((x) => x.row).join('\n'), personValues(p))).toEqual([]);
    const api = await deliveriesOf(w.t, w.admin.cookie, endpoint.id);
    expect(foundIn(JSON.stringify(api), personValues(p))).toEqual([]);
  });

  it('the migration rewrites stored answers and old reasons as the service own codes', async () => {
    const [one] = await sql<{ event_id: string; endpoint_id: string }>(
      'SELECT event_id, endpoint_id FROM webhook_deliveries LIMIT 1',
    );
    const cases: [number | null, string, string][] = [
      [
        400,
        '{"type":"subscription.paid","data":{"customer":{"email":"z@example.com"}}}',
        'http_400',
      ],
      [302, 'redirect not followed (Location: https://x.example)', 'redirect_not_followed'],
      [null, 'erased', 'erased'],
      [null, 'endpoint disabled', 'endpoint_disabled'],
      [null, 'timeout: no answer within 15 s', 'timeout'],
      [null, 'connection refused', 'connection_refused'],
      [null, 'connection failed: ECONNRESET', 'connection_reset'],
      [null, 'connection failed: DEPTH_ZERO_SELF_SIGNED_CERT', 'tls'],
      [null, 'connection failed: EHOSTDOWN', 'connection_failed'],
      [null, 'address refused: The host h.example could not be resolved.', 'name_not_resolved'],
      [
        null,
        'address refused: The host h.example is or resolves to a non-public address.',
        'refused_address',
      ],
      [null, 'aborted: the instance is stopping', 'aborted'],
      [null, 'not sent: Error: no key', 'not_sent'],
      [null, 'Dana Carer lives alone', 'failed'],
    ];
    for (const [status, text, code] of cases) {
      await sql(
        'UPDATE webhook_deliveries SET last_status_code = $3, last_error = $4 WHERE event_id = $1 AND endpoint_id = $2',
        [one.event_id, one.endpoint_id, status, text],
      );
      const runner = w.t.app.get(DataSource).createQueryRunner();
      try {
        await new DeliveryReasons1796150000000().up(runner);
      } finally {
        await runner.release();
      }
      const [after] = await sql<{ last_error: string }>(
        'SELECT last_error FROM webhook_deliveries WHERE event_id = $1 AND endpoint_id = $2',
        [one.event_id, one.endpoint_id],
      );
      expect([text, after.last_error]).toEqual([text, code]);
    }
  });
});
