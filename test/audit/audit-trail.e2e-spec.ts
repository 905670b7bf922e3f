import { DataSource } from 'typeorm';
import { AuditTrail } from '../../src/audit/audit-trail.service';
import { runCli } from '../support/cli';
import { Clock } from '../../src/common/clock/clock';
import { Housekeeping } from '../../src/database/housekeeping.service';
import { apiClient } from '../support/api-client';
import { signIn } from '../support/auth';
import { emptyDatabase, EmptyDatabase } from '../support/empty-database';
import { createOrg, unique } from '../support/factories';
import { FakeClock } from '../support/fake-clock';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * The audit trail (docs/audit.md): security changes become events, an org's admins read their
 * own, the database refuses to change them, `audit:verify` finds a row changed by hand, and the
 * retention prunes from the oldest end. On an empty database of its own: the chain is this spec's.
 */
describe('audit trail', () => {
  let db: EmptyDatabase;
  let clock: FakeClock;
  let t: TestApp;
  let api: ReturnType<typeof apiClient>;
  let adminA: Awaited<ReturnType<typeof signIn>>;
  let adminB: Awaited<ReturnType<typeof signIn>>;
  let memberA: Awaited<ReturnType<typeof signIn>>;
  const sql = <T>(text: string, params: unknown[] = []) =>
    t.app.get(DataSource).query<T[]>(text, params);
  const list = (who: { cookie: string }, query: Record<string, string | number> = {}) =>
    t.http().get('/api/v1/audit-events').set('Cookie', who.cookie).query(query);

  beforeAll(async () => {
    db = await emptyDatabase();
    clock = new FakeClock();
    // The CLI reads its configuration from the environment, as it does in production.
    process.env.DATABASE_URL = db.url;
    process.env.DATABASE_POOL_SIZE = '2';
    t = await createTestApp({
      env: { DATABASE_URL: db.url, RECONCILE_INTERVAL_SECONDS: '0' },
      override: (b) => b.overrideProvider(Clock).useValue(clock),
    });
    api = apiClient(t);
    const orgA = (await createOrg(t.app)).id;
    adminA = await signIn(t, { orgId: orgA, role: 'admin' });
    memberA = await signIn(t, { orgId: orgA, role: 'member' });
    adminB = await signIn(t, { role: 'admin' });
  });
  afterAll(async () => {
    await t?.close();
    await db?.stop();
  });

  it('records a device registered through the API, with who, the request and its address', async () => {
    const deviceId = unique('audit-dev');
    const registered = await t
      .http()
      .post('/api/v1/devices')
      .set('Cookie', adminA.cookie)
      .send({ device_id: deviceId, model: 'hub-2', provider: 'acme' })
      .expect(201);
    const [device] = await sql<{ id: string }>('SELECT id FROM devices WHERE device_id = $1', [
      deviceId,
    ]);
    const { body } = await api('get', '/api/v1/audit-events', {
      expect: 200,
      headers: { Cookie: adminA.cookie },
      query: { action: 'device.registered' },
    });
    expect(body.items).toEqual([
      {
        id: expect.stringMatching(/^\d+$/),
        occurred_at: clock.now().toISOString(),
        action: 'device.registered',
        actor: { type: 'user', id: adminA.user.id },
        subject: { type: 'device', id: device.id },
        ip: expect.any(String),
        request_id: registered.headers['x-request-id'],
        details: { device_id: deviceId },
      },
    ]);
    expect(body.next_cursor).toBeNull();
  });

  it("shows an admin only their organization's events; a member is refused", async () => {
    const a = (await list(adminA).expect(200)).body as { items: { actor: { id: string } }[] };
    const actors = new Set(a.items.map((e) => e.actor.id));
    expect(actors).toEqual(new Set([adminA.user.id, memberA.user.id]));
    const b = (await list(adminB).expect(200)).body as { items: { action: string }[] };
    expect(b.items.map((e) => e.action)).toEqual(['user.signed_in']);
    const refused = await list(memberA).expect(403);
    expect(refused.body).toMatchObject({ code: 'forbidden' });
  });

  it('filters by action, actor, subject and time, and refuses bad filters', async () => {
    const byMember = (await list(adminA, { actor_id: memberA.user.id }).expect(200)).body;
    expect(byMember.items).toEqual([
      expect.objectContaining({
        action: 'user.signed_in',
        subject: { type: 'user', id: memberA.user.id },
        details: { role: 'member' },
      }),
    ]);
    const aboutMember = (await list(adminA, { subject_id: memberA.user.id }).expect(200)).body;
    expect(aboutMember.items).toHaveLength(1);
    const later = new Date(clock.now().getTime() + 1000).toISOString();
    expect((await list(adminA, { since: later }).expect(200)).body.items).toEqual([]);
    const all = (await list(adminA, { since: '2000-01-01T00:00:00Z' }).expect(200)).body;
    expect(all.items).toHaveLength(3);
    const bad: Record<string, string | number>[] = [
      { actor_id: 'not-a-uuid' },
      { since: 'yesterday' },
      { limit: 0 },
      { limit: 201 },
      { action: 'Device Registered' },
      { cursor: 'bm90LW91cnM' },
    ];
    for (const query of bad) {
      const res = await list(adminA, query).expect(400);
      expect(res.body).toMatchObject({ code: 'validation_failed' });
    }
  });

  it('pages newest first with keyset cursors, neither repeating nor skipping', async () => {
    const trail = t.app.get(AuditTrail);
    for (let i = 0; i < 5; i++) {
      clock.advance(1);
      await trail.append({
        action: 'test.written',
        actor: { type: 'user', id: adminA.user.id, orgId: adminA.user.orgId },
        details: { n: i },
      });
    }
    const whole = (await list(adminA, { limit: 200 }).expect(200)).body as {
      items: { id: string }[];
    };
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = (await list(adminA, { limit: 2, ...(cursor ? { cursor } : {}) }).expect(200))
        .body as { items: { id: string }[]; next_cursor: string | null };
      expect(page.items.length).toBeLessThanOrEqual(2);
      seen.push(...page.items.map((e) => e.id));
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual(whole.items.map((e) => e.id));
    expect(seen).toHaveLength(8);
    expect(whole.items.slice(0, 5).map((e) => Number(e.id))).toEqual(
      [...whole.items.slice(0, 5).map((e) => Number(e.id))].sort((x, y) => y - x),
    );
  });

  it('refuses UPDATE and DELETE in the database itself', async () => {
    await expect(sql("UPDATE audit_events SET action = 'x.y'")).rejects.toThrow(/append-only/);
    await expect(sql('DELETE FROM audit_events')).rejects.toThrow(/append-only/);
    await expect(sql('TRUNCATE audit_events')).rejects.toThrow(/append-only/);
  });

  it('audit:verify accepts the chain, with its count', async () => {
    const [{ n }] = await sql<{ n: string }>('SELECT count(*) AS n FROM audit_events');
    const result = await runCli(['audit:verify']);
    expect(result).toMatchObject({ code: 0 });
    expect(JSON.parse(result.stdout ?? '')).toEqual({ verified: Number(n) });
  });

  it('prunes events older than AUDIT_RETENTION_DAYS from the oldest end; the rest still verifies', async () => {
    const [{ n }] = await sql<{ n: string }>('SELECT count(*) AS n FROM audit_events');
    clock.advance(2190 * 86_400 - 10);
    // One young event (a sign-in's ID token would be years from the moved clock).
    const actor = { type: 'user' as const, id: adminA.user.id, orgId: adminA.user.orgId };
    await t.app.get(AuditTrail).append({ action: 'test.young', actor });
    clock.advance(20); // the old ones are now more than 2190 days old; the young one is not
    const report = await t.app.get(Housekeeping).runOnce();
    expect(report.handled?.audit_events).toBe(Number(n));
    const left = await sql<{ action: string }>('SELECT action FROM audit_events');
    expect(left).toEqual([{ action: 'test.young' }]);
    const result = await runCli(['audit:verify']);
    expect(JSON.parse(result.stdout ?? '')).toEqual({ verified: 1 });
  });

  it('audit:verify exits 1 naming the first event changed by hand', async () => {
    const trail = t.app.get(AuditTrail);
    const actor = { type: 'system' as const, id: null, orgId: null };
    for (let i = 0; i < 3; i++) await trail.append({ action: 'test.written', actor });
    const [row] = await sql<{ id: string; seq: string }>(
      'SELECT id, seq FROM audit_events ORDER BY seq LIMIT 1 OFFSET 2',
    );
    await sql('ALTER TABLE audit_events DISABLE TRIGGER USER');
    await sql(`UPDATE audit_events SET details = '{"n": 1}' WHERE id = $1`, [row.id]);
    await sql('ALTER TABLE audit_events ENABLE TRIGGER USER');
    const result = await runCli(['audit:verify']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`audit event id ${row.id} (seq ${row.seq})`);
  });
});
