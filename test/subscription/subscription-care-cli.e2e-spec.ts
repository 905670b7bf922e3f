import { userInfo } from 'node:os';
import { DataSource } from 'typeorm';
import { signIn } from '../support/auth';
import { processorEnv } from '../support/checkout';
import { FakeProcessor } from '../support/fake-processor';
import {
  baseSeconds,
  createFulfilmentOrg,
  eventsFor,
  LIFECYCLE_ENV,
  newFulfilmentOrgId,
  newRecord,
  send,
} from '../support/subscriptions';
import { createTestApp, TestApp, testDatabaseUrl } from '../support/test-app';
import { cliWith } from '../privacy/support';

/**
 * `subscription:erase` and `subscription:export` (contract section 9): the API's shapes on stdout,
 * exit 0, or the reason on stderr and exit 1; each writes its audit event with actor `cli`.
 */
describe('command line: subscription:erase and subscription:export', () => {
  let fake: FakeProcessor;
  let t: TestApp;
  let cookie: string;
  const fulfilmentOrgId = newFulfilmentOrgId();
  const cliEnv = () => ({
    ...LIFECYCLE_ENV,
    ...processorEnv(fake.url),
    DATABASE_URL: testDatabaseUrl(),
    FULFILMENT_ORG_ID: fulfilmentOrgId,
    STRIPE_MAX_NETWORK_RETRIES: '0',
  });
  const cli = (argv: string[]) => cliWith(cliEnv(), argv);
  const auditOf = (id: string, action: string) =>
    t.app
      .get(DataSource)
      .query<{ actor_type: string; actor_id: string }[]>(
        'SELECT actor_type, actor_id FROM audit_events WHERE subject_id = $1 AND action = $2',
        [id, action],
      );

  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    t = await createTestApp({
      env: { ...LIFECYCLE_ENV, ...processorEnv(fake.url), FULFILMENT_ORG_ID: fulfilmentOrgId },
    });
    await createFulfilmentOrg(t.app, fulfilmentOrgId);
    cookie = (await signIn(t, { orgId: fulfilmentOrgId, role: 'admin' })).cookie;
  });
  afterAll(async () => {
    await t?.close();
    await fake?.stop();
  });

  /** A paid record with every field, then canceled: exportable and erasable. */
  async function canceledRecord() {
    const r = await newRecord(t);
    await send(t, eventsFor(r).completed(baseSeconds()));
    await send(t, eventsFor(r).deleted(baseSeconds() + 1));
    return r.sub.id;
  }

  it("export prints the API's export shape and is remembered with actor cli", async () => {
    const id = await canceledRecord();
    const result = await cli(['subscription:export', id]);
    expect(result).toMatchObject({ code: 0 });
    const printed = JSON.parse(result.stdout ?? '') as Record<string, unknown>;
    const api = await t
      .http()
      .get(`/api/v1/subscriptions/${id}/export`)
      .set('Cookie', cookie)
      .expect(200);
    expect(Object.keys(printed)).toEqual(['subscription', 'deliveries', 'access']);
    expect(printed.subscription).toEqual(api.body.subscription);
    expect(printed.deliveries).toEqual(api.body.deliveries);
    // The API's list has one look more (its own), after the command's.
    expect((api.body.access as unknown[]).slice(0, -1)).toEqual(printed.access);
    expect(printed.access).toContainEqual(
      expect.objectContaining({
        action: 'subscription.exported',
        actor: { type: 'cli', id: userInfo().username },
      }),
    );
    expect(await auditOf(id, 'subscription.exported')).toContainEqual({
      actor_type: 'cli',
      actor_id: userInfo().username,
    });
  });

  it("erase prints the API's record, personal fields null, closes the checkout, audits with actor cli", async () => {
    const r = await newRecord(t);
    fake.openSession(r.sub.id, r.sessionId);
    const result = await cli(['subscription:erase', r.sub.id]);
    expect(result).toMatchObject({ code: 0 });
    const printed = JSON.parse(result.stdout ?? '') as Record<string, unknown>;
    const api = await t.http().get(`/api/v1/subscriptions/${r.sub.id}`).set('Cookie', cookie);
    const { history, ...record } = api.body as Record<string, unknown>;
    expect(history).toEqual([]);
    expect(printed).toEqual(record);
    expect(printed).toMatchObject({
      status: 'pending',
      customer: { email: null, name: null, phone: null },
      erased_at: expect.any(String),
    });
    expect(fake.sessions.get(r.sessionId)?.status).toBe('expired');
    expect(await auditOf(r.sub.id, 'subscription.erased')).toEqual([
      { actor_type: 'cli', actor_id: userInfo().username },
    ]);
  });

  it('exits 1 with the reason: a billed record, an unknown id, a missing id', async () => {
    const r = await newRecord(t);
    await send(t, eventsFor(r).completed(baseSeconds()));
    const billed = await cli(['subscription:erase', r.sub.id]);
    expect(billed.code).toBe(1);
    expect(billed.stderr).toMatch(/still billed/);
    expect(billed.stdout ?? '').toBe('');
    for (const argv of [
      ['subscription:erase', '7a0e3f8e-0000-4000-8000-000000000000'],
      ['subscription:export', '7a0e3f8e-0000-4000-8000-000000000000'],
      ['subscription:export', 'not-a-uuid'],
      ['subscription:erase'],
    ]) {
      const result = await cli(argv);
      expect(result.code).toBe(1);
      expect(result.stderr).toBeTruthy();
    }
    expect(await auditOf(r.sub.id, 'subscription.erased')).toEqual([]);
  });
});
