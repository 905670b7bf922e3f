import { runCli } from '../support/cli';
import { createPendingSubscription } from '../support/factories';
import { baseSeconds, eventsFor, LIFECYCLE_ENV, newRecord, send } from '../support/subscriptions';
import { createTestApp, TestApp, testDatabaseUrl } from '../support/test-app';

/** The CLI reads its configuration from the environment, as it does in production. */
function cliEnv(values: Record<string, string>): void {
  Object.assign(process.env, { DATABASE_POOL_SIZE: '2', ...values });
}

const json = async (argv: string[]) => {
  const result = await runCli(argv);
  expect(result).toMatchObject({ code: 0 });
  return JSON.parse(result.stdout ?? '') as Record<string, unknown>;
};

describe('command line: subscription:show and subscription:list', () => {
  let t: TestApp;
  beforeAll(async () => {
    cliEnv({ DATABASE_URL: testDatabaseUrl() });
    t = await createTestApp({ env: LIFECYCLE_ENV });
  });
  afterAll(() => t.close());

  it("prints one subscription record as JSON, in the API's shape", async () => {
    const sub = await createPendingSubscription(t.app, { name: 'Dana', coupon: 'beta-tester' });
    const shown = await json(['subscription:show', sub.id]);
    expect(shown).toEqual({
      id: sub.id,
      status: 'pending',
      created_at: sub.createdAt.toISOString(),
      paid_at: null,
      canceled_at: null,
      expired_at: null,
      coupon: 'beta-tester',
      customer: { email: sub.email, name: 'Dana', phone: null },
      recipient: { name: null, living_situation: null, primary_concern: null, zip: null },
      shipping: { name: null, address: null },
      processor: {
        checkout_session_id: sub.checkoutSessionId,
        subscription_id: null,
        customer_id: null,
      },
      erased_at: null,
      device: null,
      history: [],
    });
  });

  it('prints the history, in the order the events happened', async () => {
    const r = await newRecord(t);
    const e = eventsFor(r);
    const base = baseSeconds();
    await send(t, e.invoiceFailed(base + 20));
    await send(t, e.completed(base));
    const shown = await json(['subscription:show', r.sub.id]);
    expect(shown).toMatchObject({ status: 'past_due', shipping: { name: 'Ruth Carer' } });
    expect(shown.history).toEqual([
      expect.objectContaining({ type: 'checkout.session.completed', from: 'pending', to: 'paid' }),
      expect.objectContaining({ type: 'invoice.payment_failed', from: 'paid', to: 'past_due' }),
    ]);
  });

  it('lists subscriptions newest first, by status, a page at a time', async () => {
    const made: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await newRecord(t);
      await send(t, eventsFor(r).expired(baseSeconds()));
      made.push(r.sub.id);
    }
    // Other specs add expired records too: follow the pages until ours have all been seen.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page = await json([
        'subscription:list',
        '--status',
        'expired',
        '--limit',
        '2',
        ...(cursor ? ['--cursor', cursor] : []),
      ]);
      const items = page.items as { id: string; status: string }[];
      expect(items.length).toBeLessThanOrEqual(2);
      expect(items.every((i) => i.status === 'expired')).toBe(true);
      seen.push(...items.map((i) => i.id));
      cursor = page.next_cursor as string | null;
    } while (cursor && !made.every((id) => seen.includes(id)));
    expect(seen.filter((id) => made.includes(id))).toEqual([...made].reverse());
  });

  it('exits 1 for an unknown or malformed id, a bad status, and without an id', async () => {
    for (const argv of [
      ['subscription:show', '7a0e3f8e-0000-4000-8000-000000000000'],
      ['subscription:show', 'not-a-uuid'],
      ['subscription:show'],
      ['subscription:list', '--status', 'lost'],
      ['subscription:list', '--limit', '0'],
      ['subscription:list', '--cursor', 'nope'],
    ]) {
      const result = await runCli(argv);
      expect(result.code).toBe(1);
      expect(result.stderr).toBeTruthy();
    }
  });
});
