import { Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/clock/clock';
import { Housekeeping } from '../../src/database/housekeeping.service';
import { SubscriptionRetention } from '../../src/subscription/care-data/subscription-retention.service';
import { emptyDatabase } from '../support/empty-database';
import { FakeClock } from '../support/fake-clock';
import { FakeProcessor } from '../support/fake-processor';
import { processorEnv } from '../support/checkout';
import { baseSeconds, eventsFor, LIFECYCLE_ENV, newRecord, send } from '../support/subscriptions';
import { createTestApp, TestApp } from '../support/test-app';

const DAY = 86_400;

/** Paid, then canceled by the processor: its status changes on the world's clock. */
async function canceled(t: TestApp) {
  const r = await newRecord(t);
  await send(t, eventsFor(r).completed(baseSeconds()));
  await send(t, eventsFor(r).deleted(baseSeconds() + 1));
  return r.sub.id;
}

/**
 * Forgotten on time (contract section 9): the housekeeping pass erases ended and abandoned
 * records after PERSONAL_DATA_RETENTION_DAYS. On empty databases of their own: the moved clock
 * must not reach another spec's records.
 */
describe('retention of personal data (PERSONAL_DATA_RETENTION_DAYS)', () => {
  let fake: FakeProcessor;
  beforeAll(async () => {
    fake = await new FakeProcessor().start();
  });
  afterAll(() => fake.stop());

  async function world(days: string) {
    const db = await emptyDatabase();
    const clock = new FakeClock();
    const t = await createTestApp({
      env: {
        ...processorEnv(fake.url),
        ...LIFECYCLE_ENV,
        DATABASE_URL: db.url,
        RECONCILE_INTERVAL_SECONDS: '0',
        HOUSEKEEPING_INTERVAL_SECONDS: '0',
        PERSONAL_DATA_RETENTION_DAYS: days,
      },
      override: (b) => b.overrideProvider(Clock).useValue(clock),
    });
    return {
      t,
      clock,
      run: () => t.app.get(Housekeeping).runOnce(),
      erasedAt: async (id: string) => {
        const [row] = await t.app
          .get(DataSource)
          .query<{ erased_at: Date | null; personal: string | null }[]>(
            'SELECT erased_at, personal FROM subscriptions WHERE id = $1',
            [id],
          );
        return row.erased_at;
      },
      close: async () => {
        await t.close();
        await db.stop();
      },
    };
  }

  it('erases a canceled record after the days pass, never a paid one; pending counts from creation', async () => {
    const w = await world('30');
    try {
      const ended = await canceled(w.t);
      const pending = (await newRecord(w.t)).sub.id;
      const p = await newRecord(w.t);
      await send(w.t, eventsFor(p).completed(baseSeconds()));
      const paid = p.sub.id;
      w.clock.advance(29 * DAY);
      expect((await w.run()).handled).toMatchObject({ subscriptions_erased: 0 });
      expect(await w.erasedAt(ended)).toBeNull();
      w.clock.advance(2 * DAY);
      expect((await w.run()).handled).toMatchObject({ subscriptions_erased: 2 });
      expect(await w.erasedAt(ended)).toEqual(w.clock.now());
      expect(await w.erasedAt(pending)).toEqual(w.clock.now());
      expect(await w.erasedAt(paid)).toBeNull();
      expect(fake.customerDeletions()).toContain('cus_test_123');
      // Done: the next pass finds nothing.
      expect((await w.run()).handled).toMatchObject({ subscriptions_erased: 0 });
      w.clock.advance(3650 * DAY);
      await w.run();
      expect(await w.erasedAt(paid)).toBeNull();
    } finally {
      await w.close();
    }
  });

  it('0 turns it off', async () => {
    const w = await world('0');
    try {
      const ended = await canceled(w.t);
      w.clock.advance(3650 * DAY);
      expect((await w.run()).handled).toMatchObject({ subscriptions_erased: 0 });
      expect(await w.erasedAt(ended)).toBeNull();
    } finally {
      await w.close();
    }
  });
});

/**
 * Two instances on one database run the pass at the same moment (each has its own housekeeping
 * timer, and a task runs outside the deletions' advisory lock): every due record is erased once,
 * told once and audited once, and neither instance logs a warning or an error.
 */
describe('retention on two instances at once', () => {
  it('erases each due record exactly once, with no error', async () => {
    const fake = await new FakeProcessor().start();
    const db = await emptyDatabase();
    const clock = new FakeClock();
    const env = {
      ...processorEnv(fake.url),
      ...LIFECYCLE_ENV,
      DATABASE_URL: db.url,
      RECONCILE_INTERVAL_SECONDS: '0',
      HOUSEKEEPING_INTERVAL_SECONDS: '0',
      PERSONAL_DATA_RETENTION_DAYS: '30',
    };
    const faults = [jest.spyOn(Logger.prototype, 'warn'), jest.spyOn(Logger.prototype, 'error')];
    const apps: TestApp[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        apps.push(
          await createTestApp({ env, override: (b) => b.overrideProvider(Clock).useValue(clock) }),
        );
      }
      const [t] = apps;
      const ids: string[] = [];
      for (let i = 0; i < 4; i++) ids.push(await canceled(t));
      for (let i = 0; i < 36; i++) ids.push((await newRecord(t)).sub.id);
      clock.advance(31 * DAY);
      const passes = await Promise.all(
        apps.map((a) => a.app.get(SubscriptionRetention).run(() => false)),
      );
      expect(passes[0] + passes[1]).toBe(ids.length);
      // And the whole housekeeping pass, on both at once, finds nothing left to do.
      const reports = await Promise.all(apps.map((a) => a.app.get(Housekeeping).runOnce()));
      expect(reports.map((r) => r.handled?.subscriptions_erased ?? 0)).toEqual([0, 0]);
      const sql = <T>(text: string) => t.app.get(DataSource).query<T[]>(text);
      const audited = await sql<{ subject_id: string; n: number }>(
        `SELECT subject_id, count(*)::int AS n FROM audit_events
          WHERE action = 'subscription.erased' GROUP BY subject_id ORDER BY subject_id`,
      );
      expect(audited).toEqual([...ids].sort().map((id) => ({ subject_id: id, n: 1 })));
      const [told] = await sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM outgoing_events WHERE type = 'subscription.erased'`,
      );
      expect(told.n).toBe(ids.length);
      const [left] = await sql<{ n: number }>(
        'SELECT count(*)::int AS n FROM subscriptions WHERE erased_at IS NULL',
      );
      expect(left.n).toBe(0);
      for (const spy of faults) expect(spy.mock.calls).toEqual([]);
    } finally {
      for (const spy of faults) spy.mockRestore();
      for (const a of apps) await a.close();
      await db.stop();
      await fake.stop();
    }
  });
});
