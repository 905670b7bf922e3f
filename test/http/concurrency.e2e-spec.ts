import { DataSource } from 'typeorm';
import { User } from '../../src/auth/user.entity';
import { Device } from '../../src/device/device.entity';
import { Organization } from '../../src/org/organization.entity';
import { signIn, subjectFor } from '../support/auth';
import { capturedLogs } from '../support/captured-logs';
import { processorEnv, recordOf, subscriptionsOf } from '../support/checkout';
import { decodeJwt } from '../support/devices';
import {
  createDevice,
  createOrg,
  createPendingSubscription,
  createUser,
  unique,
} from '../support/factories';
import { FakeProcessor } from '../support/fake-processor';
import { sharedIdentityProvider } from '../support/identity-provider';
import { checkoutCompletedEvent, sign } from '../support/processor-events';
import { createTestApp, TestApp } from '../support/test-app';
import { TransactionProbeController } from '../support/transaction-probe.controller';
import { deliver, PAID_DETAILS, WEBHOOK_ENV } from '../support/webhook';

/**
 * Many requests at once, on the database the run uses (embedded PGlite by default, PostgreSQL in
 * CI). Every answer is checked for being the right one, not only for being no 5xx: interleaved
 * statements on one PGlite session once answered a valid request with another request's rows.
 */
const LIMITS = {
  RATE_LIMIT_CHECKOUT_PER_MINUTE: '100000',
  RATE_LIMIT_LOGIN_PER_MINUTE: '100000',
  RATE_LIMIT_DEVICE_AUTH_PER_MINUTE: '100000',
};

describe('concurrent requests get their own right answers', () => {
  let t: TestApp;
  let fake: FakeProcessor;
  let logs: ReturnType<typeof capturedLogs>;

  beforeAll(async () => {
    fake = await new FakeProcessor().start();
    logs = capturedLogs({ ...LIMITS, ...WEBHOOK_ENV, ...processorEnv(fake.url) });
    t = await createTestApp(logs.options);
  });
  afterAll(async () => {
    await t.close();
    await fake.stop();
  });

  const users = () => t.app.get(DataSource).getRepository(User);
  const createAccount = (cookie: string, email: string) =>
    t.http().post('/api/v1/users').set('Cookie', cookie).send({ email, role: 'member' });

  it('100 mixed requests: creates in two orgs, sign-ins, me, device tokens, checkouts, webhooks', async () => {
    const [adminA, adminB] = [
      await signIn(t, { role: 'admin' }),
      await signIn(t, { role: 'admin' }),
    ];
    const idp = await sharedIdentityProvider();
    const signers = await Promise.all(Array.from({ length: 10 }, () => createUser(t.app)));
    const tokens = await Promise.all(
      signers.map((u) => idp.token({ claims: { email: u.email, sub: subjectFor(u.email) } })),
    );
    const members = await Promise.all(Array.from({ length: 10 }, () => signIn(t)));
    const org = await createOrg(t.app);
    const devices = await Promise.all(
      Array.from({ length: 15 }, () => createDevice(t.app, org.id)),
    );
    const pending = await Promise.all(
      Array.from({ length: 15 }, () => createPendingSubscription(t.app)),
    );
    const newEmails = (n: number) =>
      Array.from({ length: n }, () => `${unique('new')}@example.com`);
    const [emailsA, emailsB] = [newEmails(20), newEmails(20)];

    const checks: Promise<void>[] = [
      ...emailsA.map((e) => created(createAccount(adminA.cookie, e), e, adminA.user.orgId)),
      ...emailsB.map((e) => created(createAccount(adminB.cookie, e), e, adminB.user.orgId)),
      ...tokens.map(async (idToken, i) => {
        const res = await t.http().post('/api/auth/login').send({ id_token: idToken });
        expect([res.status, res.body.user?.email]).toEqual([200, signers[i].email]);
      }),
      ...members.map(async (m) => {
        const res = await t.http().get('/api/auth/me').set('Cookie', m.cookie);
        expect([res.status, res.body.user?.id, res.body.user?.org_id]).toEqual([
          200,
          m.user.id,
          m.user.orgId,
        ]);
      }),
      ...devices.map(async (d) => {
        const res = await t
          .http()
          .post('/auth/device')
          .send({ device_id: d.deviceId, model: d.model, provider: d.provider });
        expect(res.status).toBe(200);
        expect(decodeJwt(res.body.access_token).payload).toMatchObject({
          sub: d.deviceId,
          org_id: org.id,
        });
      }),
      ...newEmails(10).map(async (email) => {
        const res = await t.http().post('/api/lease/checkout').send({ email });
        expect(res.status).toBe(200);
        const row = await recordOf(t, res.body.subscription_id);
        expect([row.email, row.status]).toEqual([email, 'pending']);
      }),
      ...pending.map(async (s) => {
        const payload = JSON.stringify(checkoutCompletedEvent(s.id));
        const res = await deliver(t, payload, sign(payload));
        expect([res.status, res.body]).toEqual([200, { received: true }]);
      }),
    ];
    expect(checks).toHaveLength(100);
    await Promise.all(checks);

    for (const s of pending) {
      expect(await subscriptionsOf(t).findOneByOrFail({ id: s.id })).toMatchObject(PAID_DETAILS);
    }
    const errorLines = logs.lines.filter((l) => (JSON.parse(l) as { level: number }).level >= 50);
    expect(errorLines).toEqual([]);
  });

  async function created(
    pending: PromiseLike<{ status: number; body: { org_id?: string } }>,
    email: string,
    orgId: string,
  ) {
    const res = await pending;
    expect([res.status, res.body.org_id]).toEqual([201, orgId]);
    expect((await users().findOneByOrFail({ email })).orgId).toBe(orgId);
  }

  it('one email created six times at once: one 201, five 409 user_exists', async () => {
    const admin = await signIn(t, { role: 'admin' });
    const email = `${unique('race')}@example.com`;
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => createAccount(admin.cookie, email)),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((a) => a.status === 409))
      expect(r.body.code).toBe('user_exists');
    expect(await users().countBy({ email })).toBe(1);
  });

  it('one device_id registered six times at once: one 201, five 409 device_exists', async () => {
    const admin = await signIn(t, { role: 'admin' });
    const body = { device_id: unique('race').toLowerCase(), model: 'hub-2', provider: 'acme' };
    const answers = await Promise.all(
      Array.from({ length: 6 }, () =>
        t.http().post('/api/v1/devices').set('Cookie', admin.cookie).send(body),
      ),
    );
    expect(answers.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    for (const r of answers.filter((a) => a.status === 409))
      expect(r.body.code).toBe('device_exists');
    expect(
      await t.app.get(DataSource).getRepository(Device).countBy({ deviceId: body.device_id }),
    ).toBe(1);
  });

  it.each([
    ['demote', { role: 'member' }],
    ['disable', { disabled: true }],
  ])('two admins who %s each other at once leave exactly one active admin', async (_, change) => {
    const loserGuard = 'role' in change ? [403, 'forbidden'] : [401, 'unauthenticated'];
    for (let round = 0; round < 4; round++) {
      const org = await createOrg(t.app);
      const [x, y] = [
        await signIn(t, { orgId: org.id, role: 'admin' }),
        await signIn(t, { orgId: org.id, role: 'admin' }),
      ];
      const answers = await Promise.all([
        t.http().patch(`/api/v1/users/${y.user.id}`).set('Cookie', x.cookie).send(change),
        t.http().patch(`/api/v1/users/${x.user.id}`).set('Cookie', y.cookie).send(change),
      ]);
      // The loser is refused by the rule (409) when it got past its guard before the winner wrote,
      // else by the guard itself: it is no longer an admin (403), or its sessions ended (401).
      const [winner, loser] = [...answers].sort((a, b) => a.status - b.status);
      expect(winner.status).toBe(200);
      expect([[409, 'conflict'], loserGuard]).toContainEqual([loser.status, loser.body.code]);
      expect(await users().countBy({ orgId: org.id, role: 'admin', disabled: false })).toBe(1);
    }
  });

  it('device heartbeats at once each land on their own device', async () => {
    const org = await createOrg(t.app);
    const devices = await Promise.all(
      Array.from({ length: 12 }, () => createDevice(t.app, org.id)),
    );
    const bearers = await Promise.all(
      devices.map(async (d) => {
        const res = await t
          .http()
          .post('/auth/device')
          .send({ device_id: d.deviceId, model: d.model, provider: d.provider });
        return res.body.access_token as string;
      }),
    );
    const answers = await Promise.all(
      devices.map((d, i) =>
        t
          .http()
          .post('/api/device/v1/heartbeat')
          .set('Authorization', `Bearer ${bearers[i]}`)
          .send({ battery_pct: i, firmware_version: d.deviceId }),
      ),
    );
    expect(answers.map((r) => r.status)).toEqual(devices.map(() => 204));
    const repo = t.app.get(DataSource).getRepository(Device);
    for (const [i, d] of devices.entries()) {
      expect(await repo.findOneByOrFail({ id: d.id })).toMatchObject({
        batteryPct: i,
        firmwareVersion: d.deviceId,
      });
    }
  });
});

describe('two requests that each hold a transaction at once', () => {
  it('both commit, and each reads back its own row', async () => {
    const t = await createTestApp({ extra: { controllers: [TransactionProbeController] } });
    try {
      for (let round = 0; round < 5; round++) {
        const names = [unique('tx-a'), unique('tx-b')];
        const answers = await Promise.all(
          names.map((name) => t.http().post('/test/hold-transaction').send({ name })),
        );
        expect(answers.map((r) => [r.status, r.body.name as string])).toEqual(
          names.map((n) => [200, n]),
        );
        const repo = t.app.get(DataSource).getRepository(Organization);
        for (const r of answers)
          expect((await repo.findOneByOrFail({ id: r.body.id })).name).toBe(r.body.name);
      }
    } finally {
      await t.close();
    }
  });
});
