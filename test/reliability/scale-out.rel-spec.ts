import { DataSource } from 'typeorm';
import { processorEnv } from '../support/checkout';
import { emptyDatabase } from '../support/empty-database';
import { FakeProcessor } from '../support/fake-processor';
import { createPendingSubscription } from '../support/factories';
import { checkoutCompletedEvent, sign } from '../support/processor-events';
import { createTestApp, TestApp } from '../support/test-app';
import { deliver, WEBHOOK_ENV, webhookEventsOf } from '../support/webhook';
import { subscriptionsOf } from '../support/checkout';
import { recordFigure } from './support/figures';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

/** Two instances of the service on one database and (when the run has one) one Redis. */
describe('scale-out: two instances behave as one', () => {
  let fake: FakeProcessor;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    // One prefix for both, as two replicas of one deployment would share.
    const env = {
      ...processorEnv(fake.url),
      ...WEBHOOK_ENV,
      REDIS_KEY_PREFIX: `so${randomBytes(4).toString('hex')}:`,
    };
    [a, b] = await Promise.all([createTestApp({ env }), createTestApp({ env })]);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
    await fake.stop();
  });

  const redis = Boolean(process.env.TEST_REDIS_URL);

  (redis ? it : it.skip)(
    'allows 10 checkouts a minute per address across both instances together',
    async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 20; i++) {
        const app = i % 2 === 0 ? a : b;
        statuses.push((await app.http().post('/api/lease/checkout').send({})).status);
      }
      const ok = statuses.filter((s) => s === 200).length;
      recordFigure(
        'Scale-out',
        'checkouts from one address, 20 alternating over 2 instances: accepted / 429',
        `${ok} / ${statuses.filter((s) => s === 429).length}`,
        '10 / 10',
      );
      expect(ok).toBe(10);
      expect(statuses.slice(10)).toEqual(Array(10).fill(429));
      expect(fake.sessionRequests()).toHaveLength(10);
    },
  );

  it('applies one event delivered to both instances at once exactly once', async () => {
    let transitions = 0;
    let non200 = 0;
    const rounds = 20;
    for (let i = 0; i < rounds; i++) {
      const sub = await createPendingSubscription(a.app);
      const event = checkoutCompletedEvent(sub.id);
      const payload = JSON.stringify(event);
      const res = await Promise.all([
        deliver(a, payload, sign(payload)),
        deliver(b, payload, sign(payload)),
        deliver(a, payload, sign(payload)),
        deliver(b, payload, sign(payload)),
      ]);
      non200 += res.filter((r) => r.status !== 200).length;
      const applied = await webhookEventsOf(a).countBy({
        id: event.id as string,
        outcome: 'applied',
      });
      transitions += applied;
      expect(applied).toBe(1);
      expect((await subscriptionsOf(b).findOneByOrFail({ id: sub.id })).status).toBe('paid');
    }
    recordFigure(
      'Scale-out',
      `one event to both instances at once (x2 each), ${rounds} events: transitions / non-200`,
      `${transitions} / ${non200}`,
      `${rounds} / 0`,
    );
    expect(non200).toBe(0);
  });
});

describe('scale-out: two instances start at once on an empty database', () => {
  it('applies every migration once', async () => {
    const db = await emptyDatabase();
    try {
      const env = { DATABASE_URL: db.url };
      const [a, b] = await Promise.all([createTestApp({ env }), createTestApp({ env })]);
      try {
        const files = readdirSync(
          join(__dirname, '..', '..', 'src', 'database', 'migrations'),
        ).filter((f) => /^\d+-.+\.ts$/.test(f));
        const rows = await a.app
          .get(DataSource)
          .query<{ name: string }[]>('SELECT name FROM migrations');
        const distinct = new Set(rows.map((r) => r.name)).size;
        await a.http().get('/health').expect(200);
        await b.http().get('/health').expect(200);
        recordFigure(
          'Scale-out',
          'two instances booted together on an empty database: migrations applied / rows / files',
          `${distinct} / ${rows.length} / ${files.length}`,
          'each once',
        );
        expect(rows.length).toBe(files.length);
        expect(distinct).toBe(files.length);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    } finally {
      await db.stop();
    }
  });
});
