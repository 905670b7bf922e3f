import { createPendingSubscription, unique } from '../support/factories';
import { eventsFor, LIFECYCLE_ENV, newRecord, send } from '../support/subscriptions';
import { createTestApp, TestApp } from '../support/test-app';

const STATUS = '/api/lease/checkout-status';

describe('GET /api/lease/checkout-status (what the success page polls)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: LIFECYCLE_ENV });
  });
  afterAll(() => t.close());

  it('tells only the status of the record behind a session, and is never cached', async () => {
    const r = await newRecord(t);
    const pending = await t.http().get(STATUS).query({ session_id: r.sessionId }).expect(200);
    expect(pending.body).toEqual({ status: 'pending' });
    expect(pending.headers['cache-control']).toMatch(/no-store/);
    await send(t, eventsFor(r).completed(Math.floor(Date.now() / 1000)));
    const paid = await t.http().get(STATUS).query({ session_id: r.sessionId }).expect(200);
    expect(paid.body).toEqual({ status: 'paid' });
  });

  it('answers 404 for an unknown session and 400 for something that is not a session id', async () => {
    await createPendingSubscription(t.app, { checkoutSessionId: unique('cs_test') });
    const unknown = await t.http().get(STATUS).query({ session_id: 'cs_test_unknown' }).expect(404);
    expect(unknown.body.code).toBe('not_found');
    for (const query of [{}, { session_id: 'x' }, { session_id: `cs_${'a'.repeat(300)}` }]) {
      const res = await t.http().get(STATUS).query(query).expect(400);
      expect(res.body.code).toBe('validation_failed');
    }
  });
});
