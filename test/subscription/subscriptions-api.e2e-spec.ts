import { randomUUID } from 'node:crypto';
import { DataSource } from 'typeorm';
import { signIn } from '../support/auth';
import { craftedTimeCursors } from '../support/crafted-cursors';
import {
  baseSeconds,
  createFulfilmentOrg,
  eventsFor,
  LIFECYCLE_ENV,
  newFulfilmentOrgId,
  newRecord,
  send,
} from '../support/subscriptions';
import { createTestApp, TestApp } from '../support/test-app';

const LIST = '/api/v1/subscriptions';

/** Paid records inserted by SQL: many share a creation time, others differ by microseconds. */
async function insertPaid(t: TestApp, count: number, tag: string): Promise<string[]> {
  const rows = await t.app.get(DataSource).query<{ id: string }[]>(
    `INSERT INTO subscriptions (product, status, source, lease_cents, monthly_cents, currency, created_at, updated_at, paid_at, status_changed_at)
     SELECT 'lease', 'paid', $1, 24900, 5000, 'usd',
            now() - (g % 7) * interval '1 microsecond', now(), now(), now()
     FROM generate_series(1, $2) AS g RETURNING id`,
    [tag, count],
  );
  return rows.map((r) => r.id);
}

describe('GET /api/v1/subscriptions (the operators’ view)', () => {
  const fulfilmentOrgId = newFulfilmentOrgId();
  let t: TestApp;
  let operator: string;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...LIFECYCLE_ENV, FULFILMENT_ORG_ID: fulfilmentOrgId } });
    await createFulfilmentOrg(t.app, fulfilmentOrgId);
    operator = (await signIn(t, { orgId: fulfilmentOrgId, role: 'member' })).cookie;
  });
  afterAll(() => t.close());

  const get = (path: string, cookie = operator) => t.http().get(path).set('Cookie', cookie);

  it('answers 403 forbidden to users of any other organization, admins included', async () => {
    const r = await newRecord(t);
    for (const role of ['member', 'admin'] as const) {
      const { cookie } = await signIn(t, { role });
      for (const path of [LIST, `${LIST}/${r.sub.id}`]) {
        const res = await get(path, cookie).expect(403);
        expect(res.body.code).toBe('forbidden');
        expect(JSON.stringify(res.body)).not.toContain(r.sub.email);
      }
    }
    expect((await t.http().get(LIST).expect(401)).body.code).toBe('unauthenticated');
  });

  it('shows one record with its history, as the contract shapes it', async () => {
    const r = await newRecord(t);
    const e = eventsFor(r);
    const base = baseSeconds();
    await send(t, e.completed(base));
    await send(t, e.deleted(base + 60));
    const res = await get(`${LIST}/${r.sub.id}`).expect(200);
    expect(res.body).toEqual({
      id: r.sub.id,
      status: 'canceled',
      created_at: r.sub.createdAt.toISOString(),
      paid_at: new Date(base * 1000).toISOString(),
      canceled_at: new Date((base + 60) * 1000).toISOString(),
      expired_at: null,
      coupon: null,
      customer: { email: 'dana@example.com', name: 'Dana Carer', phone: '+15555550123' },
      recipient: {
        name: 'Ruth Carer',
        living_situation: 'livesalone',
        primary_concern: 'medicationreminders',
        zip: '62701',
      },
      shipping: { name: 'Ruth Carer', address: '1 Main St, Apt 2, Springfield, IL 62701, US' },
      processor: {
        checkout_session_id: r.sessionId,
        subscription_id: r.processorSubscriptionId,
        customer_id: 'cus_test_123',
      },
      erased_at: null,
      device: null,
      history: [
        {
          event_id: expect.stringMatching(/^evt_/) as string,
          type: 'checkout.session.completed',
          from: 'pending',
          to: 'paid',
          event_created_at: new Date(base * 1000).toISOString(),
          received_at: expect.any(String) as string,
          source: 'webhook',
        },
        expect.objectContaining({
          type: 'customer.subscription.deleted',
          from: 'paid',
          to: 'canceled',
        }),
      ],
    });
  });

  it('is documented in the OpenAPI document, with the success page’s status route', async () => {
    const res = await t.http().get('/api/docs-json').expect(200);
    const paths = res.body.paths as Record<string, Record<string, { tags?: string[] }>>;
    expect(paths['/api/v1/subscriptions'].get.tags).toEqual(['subscriptions']);
    expect(Object.keys(paths['/api/v1/subscriptions/{id}'])).toEqual(['get']);
    expect(paths['/api/lease/checkout-status'].get).toBeDefined();
  });

  it('answers 404 for an unknown or malformed id, and 400 for a bad status, limit or cursor', async () => {
    for (const id of ['7a0e3f8e-0000-4000-8000-000000000000', 'nope']) {
      expect((await get(`${LIST}/${id}`).expect(404)).body.code).toBe('not_found');
    }
    for (const query of ['status=lost', 'limit=0', 'limit=201', 'cursor=nope']) {
      expect((await get(`${LIST}?${query}`).expect(400)).body.code).toBe('validation_failed');
    }
  });

  it('answers 400 for a cursor whose time Date.parse takes and PostgreSQL refuses', async () => {
    for (const cursor of craftedTimeCursors()) {
      const res = await get(`${LIST}?cursor=${cursor}`);
      expect([res.status, res.body.code]).toEqual([400, 'validation_failed']);
    }
  });

  it('pages 1 000 paid records by 50 with no duplicate or gap while new ones arrive', async () => {
    const ours = new Set(await insertPaid(t, 1000, 'bulk-page'));
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?status=paid&limit=50${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await get(`${LIST}${query}`).expect(200);
      const body = res.body as {
        items: { id: string; status: string }[];
        next_cursor: string | null;
      };
      expect(body.items.length).toBeLessThanOrEqual(50);
      expect(body.items.every((i) => i.status === 'paid')).toBe(true);
      seen.push(...body.items.map((i) => i.id));
      cursor = body.next_cursor;
      pages++;
      // New paid subscriptions keep coming in while an operator pages through.
      await insertPaid(t, 3, 'bulk-new');
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.filter((id) => ours.has(id))).toHaveLength(1000);
    expect(pages).toBeGreaterThanOrEqual(20);
  });

  it('lists newest first without history, and filters by status', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await newRecord(t);
      await send(t, eventsFor(r).asyncFailed(baseSeconds()));
      made.push(r.sub.id);
    }
    const res = await get(`${LIST}?status=payment_failed&limit=200`).expect(200);
    const items = res.body.items as Record<string, unknown>[];
    expect(items.every((i) => i.status === 'payment_failed' && !('history' in i))).toBe(true);
    const ids = items.map((i) => i.id as string);
    expect(ids.filter((id) => made.includes(id))).toEqual([...made].reverse());
  });
  it('lists no personal data but the customer name (contract section 9)', async () => {
    // Made now, so it is on the first page however many older records other specs left.
    const r = await newRecord(t, { createdAt: new Date() });
    await send(t, eventsFor(r).completed(baseSeconds()));
    const res = await get(`${LIST}?limit=200`).expect(200);
    const item = (res.body.items as Record<string, unknown>[]).find((i) => i.id === r.sub.id);
    expect(item).toEqual({
      id: r.sub.id,
      status: 'paid',
      created_at: r.sub.createdAt.toISOString(),
      paid_at: expect.any(String) as string,
      canceled_at: null,
      coupon: null,
      customer: { name: 'Dana Carer' },
      erased_at: null,
    });
    const text = JSON.stringify(res.body);
    for (const secret of ['dana@example.com', '+15555550123', 'Ruth Carer', '62701', 'Main St']) {
      expect(text).not.toContain(secret);
    }
  });

  it('finds records by email through its keyed hash, exactly, whatever the case', async () => {
    const email = `${randomUUID()}@Example.com`;
    const r = await newRecord(t, { email });
    await newRecord(t);
    for (const asked of [email, email.toUpperCase(), ` ${email.toLowerCase()} `]) {
      const res = await get(`${LIST}?email=${encodeURIComponent(asked)}`).expect(200);
      expect((res.body.items as { id: string }[]).map((i) => i.id)).toEqual([r.sub.id]);
    }
    const none = await get(`${LIST}?email=${encodeURIComponent(`x${email}`)}`).expect(200);
    expect(none.body.items).toEqual([]);
    const bad = await get(`${LIST}?email=not-an-email`).expect(400);
    expect(bad.body.code).toBe('validation_failed');
    // An unencoded + arrives as a space (query decoding): the answer says how to send it.
    const plus = await get(`${LIST}?email=casey+care@example.com`).expect(400);
    expect(plus.body.errors).toEqual([
      { field: 'email', message: expect.stringMatching(/space.*%2B/) as string },
    ]);
    const encoded = await get(`${LIST}?email=casey%2Bcare@example.com`).expect(200);
    expect(encoded.body.items).toEqual([]);
    const [row] = await t.app
      .get(DataSource)
      .query<Record<string, unknown>[]>('SELECT * FROM subscriptions WHERE id = $1', [r.sub.id]);
    expect(JSON.stringify(row).toLowerCase()).not.toContain(email.toLowerCase());
  });
  it('remembers every look before answering: viewed, listed with the ids, searched by hash', async () => {
    const email = `${randomUUID()}@example.com`;
    const r = await newRecord(t, { email });
    const db = t.app.get(DataSource);
    const eventsOf = (action: string) =>
      db.query<{ actor_type: string; subject_id: string | null; details: unknown }[]>(
        'SELECT actor_type, subject_id, details FROM audit_events WHERE action = $1 ORDER BY seq DESC',
        [action],
      );
    await get(`${LIST}/${r.sub.id}`).expect(200);
    expect((await eventsOf('subscription.viewed'))[0]).toMatchObject({
      actor_type: 'user',
      subject_id: r.sub.id,
    });
    const page = await get(`${LIST}?limit=5`).expect(200);
    const listed = (await eventsOf('subscription.listed'))[0].details as { ids: string[] };
    expect(listed.ids).toEqual((page.body.items as { id: string }[]).map((i) => i.id));
    await get(`${LIST}?email=${encodeURIComponent(email)}`).expect(200);
    const searched = (await eventsOf('subscription.searched'))[0].details as Record<
      string,
      unknown
    >;
    expect(searched).toEqual({
      query_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
      ids: [r.sub.id],
    });
    const all = await db.query<{ t: string }[]>('SELECT e::text AS t FROM audit_events e');
    expect(
      all
        .map((a) => a.t)
        .join('\n')
        .toLowerCase(),
    ).not.toContain(email.toLowerCase());
  });
});

describe('GET /api/v1/subscriptions without FULFILMENT_ORG_ID', () => {
  it('answers 403 to everyone', async () => {
    const t = await createTestApp({ env: LIFECYCLE_ENV });
    try {
      const { cookie } = await signIn(t, { role: 'admin' });
      const res = await t.http().get(LIST).set('Cookie', cookie).expect(403);
      expect(res.body.code).toBe('forbidden');
    } finally {
      await t.close();
    }
  });
});
