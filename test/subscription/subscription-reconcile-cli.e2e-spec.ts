import { runCli } from '../support/cli';
import { processorEnv, subscriptionsOf } from '../support/checkout';
import { EmptyDatabase, emptyDatabase } from '../support/empty-database';
import { createPendingSubscription } from '../support/factories';
import { FakeProcessor } from '../support/fake-processor';
import { LIFECYCLE_ENV } from '../support/subscriptions';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Its own file: the CLI loads its configuration once per process (module), and this one needs
 * its own database, since a pass takes every due record it finds, other specs' ones included.
 */
const json = async (argv: string[]) => {
  const result = await runCli(argv);
  expect(result).toMatchObject({ code: 0 });
  return JSON.parse(result.stdout ?? '') as Record<string, unknown>;
};

describe('command line: subscription:reconcile', () => {
  let db: EmptyDatabase;
  let fake: FakeProcessor;
  let t: TestApp;
  beforeAll(async () => {
    db = await emptyDatabase();
    fake = await new FakeProcessor().start();
    const env = { ...processorEnv(fake.url), DATABASE_URL: db.url };
    // The CLI reads its configuration from the environment, as it does in production.
    Object.assign(process.env, { ...env, DATABASE_POOL_SIZE: '2' });
    t = await createTestApp({ env: { ...env, ...LIFECYCLE_ENV, RECONCILE_INTERVAL_SECONDS: '0' } });
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
    await db?.stop();
  });

  it('runs the pass once and prints what it changed', async () => {
    const createdAt = new Date(Date.now() - 2 * 3600 * 1000);
    const sub = await createPendingSubscription(t.app, { createdAt, checkoutSessionId: null });
    const sessionId = fake.openSession(sub.id);
    await subscriptionsOf(t).update(sub.id, { checkoutSessionId: sessionId });
    fake.completeSession(sessionId);
    expect(await json(['subscription:reconcile'])).toEqual({
      asked: 1,
      changed: [{ id: sub.id, type: 'checkout.session.completed', from: 'pending', to: 'paid' }],
      unchanged: 0,
      failed: [],
    });
    expect(await json(['subscription:reconcile'])).toMatchObject({ asked: 0, changed: [] });
  });
});
