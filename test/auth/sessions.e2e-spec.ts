import { DataSource } from 'typeorm';
import { Session } from '../../src/auth/session/session.entity';
import { sessionCookie, signIn, subjectFor } from '../support/auth';
import { capturedLogs } from '../support/captured-logs';
import { createOrg, createUser, unique } from '../support/factories';
import { sharedIdentityProvider } from '../support/identity-provider';
import { createTestApp, TestApp } from '../support/test-app';

describe('sessions people can see and end', () => {
  let t: TestApp;
  const logs = capturedLogs();
  beforeAll(async () => {
    t = await createTestApp(logs.options);
  });
  afterAll(() => t.close());

  /** One more sign-in of the account behind `email`, from a browser named `agent`. */
  async function signInFrom(email: string, agent: string): Promise<string> {
    const idp = await sharedIdentityProvider();
    const idToken = await idp.token({ claims: { email, sub: subjectFor(email) } });
    const res = await t
      .http()
      .post('/api/auth/login')
      .set('User-Agent', agent)
      .send({ id_token: idToken })
      .expect(200);
    return sessionCookie(t, res.headers['set-cookie'])!;
  }
  const me = (cookie: string) => t.http().get('/api/auth/me').set('Cookie', cookie);
  const list = (cookie: string) => t.http().get('/api/auth/sessions').set('Cookie', cookie);
  interface Item {
    id: string;
    user_agent: string | null;
    current: boolean;
  }
  const items = async (cookie: string) => (await list(cookie).expect(200)).body.items as Item[];
  const auditLines = (event: string) =>
    logs.lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .filter((l) => l.audit === event);

  it("lists the caller's live sessions with when, where from and which is current", async () => {
    const { cookie, user } = await signIn(t);
    const laptop = await signInFrom(user.email, 'Laptop/1.0');
    await signIn(t); // somebody else's session, never listed
    const listed = await items(laptop);
    expect(listed).toHaveLength(2);
    const current = listed.find((s) => s.current);
    expect(current).toEqual({
      id: expect.any(String),
      created_at: expect.any(String),
      last_used_at: expect.any(String),
      user_agent: 'Laptop/1.0',
      ip: expect.stringMatching(/127\.0\.0\.1/),
      current: true,
    });
    expect(listed.filter((s) => !s.current)).toHaveLength(1);
    // Ended sessions are not listed.
    await t.http().post('/api/auth/logout').set('Cookie', cookie).expect(204);
    expect(await items(laptop)).toHaveLength(1);
  });

  it('ends one of your sessions (204), and answers 404 for anyone else’s', async () => {
    const { cookie, user } = await signIn(t);
    const phone = await signInFrom(user.email, 'Phone/2.0');
    const other = await signIn(t);
    const [otherSession] = await items(other.cookie);
    await t
      .http()
      .delete(`/api/auth/sessions/${otherSession.id}`)
      .set('Cookie', cookie)
      .expect(404);
    await me(other.cookie).expect(200);
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      await t.http().delete(`/api/auth/sessions/${id}`).set('Cookie', cookie).expect(404);
    }
    const phoneSession = (await items(cookie)).find((s) => s.user_agent === 'Phone/2.0')!;
    await t
      .http()
      .delete(`/api/auth/sessions/${phoneSession.id}`)
      .set('Cookie', cookie)
      .expect(204);
    await me(phone).expect(401);
    await me(cookie).expect(200);
    // Once ended it is gone: a second DELETE is 404.
    await t
      .http()
      .delete(`/api/auth/sessions/${phoneSession.id}`)
      .set('Cookie', cookie)
      .expect(404);
    expect(auditLines('session_revoked')).toContainEqual(
      expect.objectContaining({ actor: user.id, session_id: phoneSession.id, reason: 'own' }),
    );
  });

  it('answers 404 for a session of yours that has already ended by itself', async () => {
    const { cookie, user } = await signIn(t);
    await signInFrom(user.email, 'Tablet/1.0');
    const tablet = (await items(cookie)).find((s) => s.user_agent === 'Tablet/1.0')!;
    await t.app
      .get(DataSource)
      .getRepository(Session)
      .update(tablet.id, { idleExpiresAt: new Date(Date.parse('2020-01-01T00:00:00Z')) });
    await t.http().delete(`/api/auth/sessions/${tablet.id}`).set('Cookie', cookie).expect(404);
  });

  it('ends every other session and keeps this one', async () => {
    const { cookie, user } = await signIn(t);
    const others = [await signInFrom(user.email, 'A/1'), await signInFrom(user.email, 'B/1')];
    const bystander = await signIn(t);
    await t
      .http()
      .post('/api/auth/sessions/revoke-others')
      .set('Cookie', cookie)
      .expect(200, { revoked: 2 });
    for (const c of others) await me(c).expect(401);
    await me(cookie).expect(200);
    await me(bystander.cookie).expect(200);
    expect(auditLines('session_revoked')).toContainEqual(
      expect.objectContaining({ actor: user.id, user_id: user.id, sessions: 2, reason: 'others' }),
    );
  });

  it('refuses cross-site requests and anonymous callers, as every cookie route does', async () => {
    const { cookie } = await signIn(t);
    await t
      .http()
      .post('/api/auth/sessions/revoke-others')
      .set('Cookie', cookie)
      .set('Origin', 'https://evil.example')
      .expect(403);
    await t
      .http()
      .post('/api/auth/sessions/revoke-others')
      .set('Cookie', cookie)
      .set('Sec-Fetch-Site', 'cross-site')
      .expect(403);
    await me(cookie).expect(200);
    await t.http().get('/api/auth/sessions').expect(401);
    await t.http().post('/api/auth/sessions/revoke-others').expect(401);
  });

  describe('POST /api/v1/users/{id}/revoke-sessions', () => {
    it('lets an admin end every session of a user of their org', async () => {
      const admin = await signIn(t, { role: 'admin' });
      const email = `${unique('lost')}@example.com`;
      const target = await signIn(t, { orgId: admin.user.orgId, email });
      const second = await signInFrom(email, 'Stolen/1');
      await t
        .http()
        .post(`/api/v1/users/${target.user.id}/revoke-sessions`)
        .set('Cookie', admin.cookie)
        .expect(200, { revoked: 2 });
      await me(target.cookie).expect(401);
      await me(second).expect(401);
      await me(admin.cookie).expect(200);
      // The account itself stays: it can sign in again.
      await me(await signInFrom(email, 'New/1')).expect(200);
      expect(auditLines('session_revoked')).toContainEqual(
        expect.objectContaining({
          actor: admin.user.id,
          user_id: target.user.id,
          sessions: 2,
          reason: 'admin',
        }),
      );
    });

    it("answers 404 for another org's user and 403 for a member", async () => {
      const admin = await signIn(t, { role: 'admin' });
      const stranger = await signIn(t, { orgId: (await createOrg(t.app)).id });
      await t
        .http()
        .post(`/api/v1/users/${stranger.user.id}/revoke-sessions`)
        .set('Cookie', admin.cookie)
        .expect(404);
      await me(stranger.cookie).expect(200);
      const member = await signIn(t, { orgId: admin.user.orgId });
      const colleague = await createUser(t.app, { orgId: admin.user.orgId });
      await t
        .http()
        .post(`/api/v1/users/${colleague.id}/revoke-sessions`)
        .set('Cookie', member.cookie)
        .expect(403);
      await t
        .http()
        .post('/api/v1/users/not-a-uuid/revoke-sessions')
        .set('Cookie', admin.cookie)
        .expect(404);
    });
  });
});
