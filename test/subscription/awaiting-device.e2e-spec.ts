import { DataSource } from 'typeorm';
import type { SubscriptionRecord } from '../../src/subscription/subscription.entity';
import { signIn } from '../support/auth';
import { runCli } from '../support/cli';
import { createPendingSubscription, unique } from '../support/factories';
import { createFulfilmentOrg, LIFECYCLE_ENV, newFulfilmentOrgId } from '../support/subscriptions';
import { createTestApp, TestApp, testDatabaseUrl } from '../support/test-app';

const LIST = '/api/v1/subscriptions';

/**
 * `?awaiting_device=true` (contract section 11's overview): live records (paid, past_due: what
 * shipping accepts) with no device shipped yet, erased ones left out; with the other filters and
 * keyset pages, each page remembered as any list page is.
 */
describe('GET /api/v1/subscriptions?awaiting_device=true', () => {
  const fulfilmentOrgId = newFulfilmentOrgId();
  let t: TestApp;
  let operator: string;
  let records: Record<string, SubscriptionRecord>;
  beforeAll(async () => {
    t = await createTestApp({ env: { ...LIFECYCLE_ENV, FULFILMENT_ORG_ID: fulfilmentOrgId } });
    await createFulfilmentOrg(t.app, fulfilmentOrgId);
    operator = (await signIn(t, { orgId: fulfilmentOrgId, role: 'member' })).cookie;
    const make = (fields: Partial<SubscriptionRecord>) => createPendingSubscription(t.app, fields);
    // Each record's state set directly: the filter is what is under test, not how states are reached.
    records = {
      paid: await make({ status: 'paid' }),
      pastDue: await make({ status: 'past_due' }),
      shipped: await make({ status: 'paid', deviceId: unique('unit').toLowerCase() }),
      pending: await make({ status: 'pending' }),
      canceled: await make({ status: 'canceled' }),
      erased: await make({ status: 'paid', erasedAt: new Date() }),
      paid2: await make({ status: 'paid' }),
    };
  });
  afterAll(() => t.close());

  const get = (query: string) => t.http().get(`${LIST}${query}`).set('Cookie', operator);

  type Item = { id: string; created_at: string };

  /** The items the query lists, following next_cursor, at most `pages` pages (other files' too). */
  async function walkItems(query: string, limit = 200, pages = 100): Promise<Item[]> {
    const items: Item[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < pages; page++) {
      const after: string = cursor ? `&cursor=${cursor}` : '';
      const res = await get(`?${query}&limit=${limit}${after}`).expect(200);
      items.push(...(res.body.items as Item[]));
      cursor = res.body.next_cursor as string | null;
      if (cursor === null) break;
    }
    return items;
  }
  const walk = async (query: string) => (await walkItems(query)).map((i) => i.id);
  const mine = (ids: string[]) =>
    Object.entries(records)
      .filter(([, r]) => ids.includes(r.id))
      .map(([name]) => name)
      .sort();

  it('lists paid and past_due records without a device, and no shipped, pending, ended or erased one', async () => {
    expect(mine(await walk('awaiting_device=true'))).toEqual(['paid', 'paid2', 'pastDue']);
    // false is no filter at all, as leaving it out.
    expect(mine(await walk('awaiting_device=false'))).toEqual(Object.keys(records).sort());
  });

  it('combines with status and pages by keyset, newest first, each item once', async () => {
    expect(mine(await walk('awaiting_device=true&status=paid'))).toEqual(['paid', 'paid2']);
    expect(mine(await walk('awaiting_device=true&status=pending'))).toEqual([]);
    // Pages of one, as far as 60 go: each item once, newest first, whatever other files add
    // meanwhile on a shared database (created_at is shown to the millisecond, kept to the µs).
    const paged = await walkItems('awaiting_device=true', 1, 60);
    expect(new Set(paged.map((i) => i.id)).size).toBe(paged.length);
    for (let n = 1; n < paged.length; n++) {
      expect(paged[n - 1].created_at >= paged[n].created_at).toBe(true);
    }
  });

  it('remembers each page as subscription.listed, with its ids', async () => {
    const res = await get('?awaiting_device=true&limit=2').expect(200);
    const [event] = await t.app
      .get(DataSource)
      .query<{ details: { ids: string[] } }[]>(
        "SELECT details FROM audit_events WHERE action = 'subscription.listed' ORDER BY seq DESC LIMIT 1",
      );
    expect(event.details.ids).toEqual((res.body.items as { id: string }[]).map((i) => i.id));
  });

  it('takes only true or false: anything else is 400 validation_failed naming the field', async () => {
    for (const value of ['1', '0', 'yes', 'TRUE', 'True', '', 'null']) {
      const res = await get(`?awaiting_device=${value}`);
      expect({ value, status: res.status }).toEqual({ value, status: 400 });
      expect(res.body.code).toBe('validation_failed');
      expect(res.body.errors).toEqual([{ field: 'awaiting_device', message: expect.any(String) }]);
    }
    const twice = await get('?awaiting_device=true&awaiting_device=true');
    expect(twice.status).toBe(400);
  });

  it('subscription:list --awaiting-device prints the same records', async () => {
    process.env.DATABASE_URL = testDatabaseUrl();
    process.env.DATABASE_POOL_SIZE = '2';
    const result = await runCli(['subscription:list', '--awaiting-device', '--limit', '200']);
    expect(result.code).toBe(0);
    const ids = (JSON.parse(result.stdout ?? '') as { items: { id: string }[] }).items.map(
      (i) => i.id,
    );
    expect(mine(ids)).toEqual(['paid', 'paid2', 'pastDue']);
  });
});
