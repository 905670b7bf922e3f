import { runCli } from '../src/cli/cli-runner';
import { createPendingSubscription } from './support/factories';
import { createTestApp, TestApp, testDatabaseUrl } from './support/test-app';

describe('command line: subscription:show', () => {
  let t: TestApp;
  beforeAll(async () => {
    process.env.DATABASE_URL = testDatabaseUrl();
    process.env.DATABASE_POOL_SIZE = '2';
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('prints one subscription record as JSON', async () => {
    const sub = await createPendingSubscription(t.app, { name: 'Dana', coupon: 'beta-tester' });
    const result = await runCli(['subscription:show', sub.id]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout ?? '')).toMatchObject({
      id: sub.id,
      product: 'lease',
      status: 'pending',
      name: 'Dana',
      email: sub.email,
      coupon: 'beta-tester',
      lease_cents: 24900,
      monthly_cents: 5000,
      currency: 'usd',
      checkout_session_id: sub.checkoutSessionId,
      paid_at: null,
    });
  });

  it('exits 1 for an unknown or malformed id, and without one', async () => {
    for (const argv of [
      ['subscription:show', '7a0e3f8e-0000-4000-8000-000000000000'],
      ['subscription:show', 'not-a-uuid'],
      ['subscription:show'],
    ]) {
      const result = await runCli(argv);
      expect(result.code).toBe(1);
      expect(result.stderr).toBeTruthy();
    }
  });
});
