import { DataSource } from 'typeorm';
import { Clock } from '../../src/common/clock/clock';
import { Housekeeping } from '../../src/database/housekeeping.service';
import { emptyDatabase } from '../support/empty-database';
import { FakeClock } from '../support/fake-clock';
import { FakeProcessor } from '../support/fake-processor';
import { processorEnv } from '../support/checkout';
import { baseSeconds, eventsFor, LIFECYCLE_ENV, newRecord, send } from '../support/subscriptions';
import { createTestApp, TestApp } from '../support/test-app';

const DAY = 86_400;

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

  /** Paid, then canceled by the processor: its status changes on the world's clock. */
  async function canceled(t: TestApp) {
    const r = await newRecord(t);
    await send(t, eventsFor(r).completed(baseSeconds()));
    await send(t, eventsFor(r).deleted(baseSeconds() + 1));
    return r.sub.id;
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
      expect((await w.run()).handled).toEqual({ subscriptions_erased: 0 });
      expect(await w.erasedAt(ended)).toBeNull();
      w.clock.advance(2 * DAY);
      expect((await w.run()).handled).toEqual({ subscriptions_erased: 2 });
      expect(await w.erasedAt(ended)).toEqual(w.clock.now());
      expect(await w.erasedAt(pending)).toEqual(w.clock.now());
      expect(await w.erasedAt(paid)).toBeNull();
      expect(fake.customerDeletions()).toContain('cus_test_123');
      // Done: the next pass finds nothing.
      expect((await w.run()).handled).toEqual({ subscriptions_erased: 0 });
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
      expect((await w.run()).handled).toEqual({ subscriptions_erased: 0 });
      expect(await w.erasedAt(ended)).toBeNull();
    } finally {
      await w.close();
    }
  });
});
