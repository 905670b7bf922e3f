import { DataSource } from 'typeorm';
import { User } from '../../src/auth/user.entity';
import { signIn } from '../support/auth';
import { createOrg, createUser } from '../support/factories';
import { createTestApp, TestApp } from '../support/test-app';

describe('administration: org and users, own org only', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('GET /api/v1/org answers the session’s own organization, for any role', async () => {
    const org = await createOrg(t.app);
    const { cookie } = await signIn(t, { orgId: org.id, role: 'member' });
    const res = await t.http().get('/api/v1/org').set('Cookie', cookie).expect(200);
    expect(res.body).toEqual({
      id: org.id,
      name: org.name,
      created_at: expect.any(String),
      device_offline_after_seconds: null,
      fulfilment: false,
    });
  });

  it('an admin lists, adds and changes the accounts of their org, and no other', async () => {
    const org = await createOrg(t.app);
    const other = await createUser(t.app); // in another org
    const admin = await signIn(t, { orgId: org.id, role: 'admin' });
    const created = await t
      .http()
      .post('/api/v1/users')
      .set('Cookie', admin.cookie)
      .send({ email: 'New.Person@Example.com', role: 'member', name: 'New Person' })
      .expect(201);
    // The contract's `user`, exactly (CONTRACT.md section 4): no other account fields.
    expect(created.body).toEqual({
      id: expect.any(String),
      email: 'new.person@example.com',
      name: 'New Person',
      org_id: org.id,
      role: 'member',
    });
    const list = await t.http().get('/api/v1/users').set('Cookie', admin.cookie).expect(200);
    const emails = (list.body.items as { email: string }[]).map((u) => u.email);
    expect(emails.sort()).toEqual([admin.user.email, 'new.person@example.com'].sort());
    expect(emails).not.toContain(other.email);

    const patched = await t
      .http()
      .patch(`/api/v1/users/${created.body.id}`)
      .set('Cookie', admin.cookie)
      .send({ role: 'admin' })
      .expect(200);
    expect(patched.body).toEqual({ ...created.body, role: 'admin' });
    expect(Object.keys(list.body.items[0] as object).sort()).toEqual([
      'disabled',
      'email',
      'id',
      'name',
      'org_id',
      'role',
    ]);
  });

  it('answers 409 user_exists for an email that has an account anywhere', async () => {
    const existing = await createUser(t.app);
    const admin = await signIn(t, { role: 'admin' });
    const res = await t
      .http()
      .post('/api/v1/users')
      .set('Cookie', admin.cookie)
      .send({ email: existing.email, role: 'member' });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('user_exists');
  });

  it('validates the body: email, role, unknown fields', async () => {
    const admin = await signIn(t, { role: 'admin' });
    const res = await t
      .http()
      .post('/api/v1/users')
      .set('Cookie', admin.cookie)
      .send({ email: 'nope', role: 'owner', org_id: 'x' });
    expect(res.status).toBe(400);
    const fields = (res.body.errors as { field: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual(['email', 'org_id', 'role']);
  });

  // Found by a hostile client: @IsOptional() let null through to a service testing `!== undefined` (500).
  it('refuses null for role or disabled with 400 naming the field, and changes nothing', async () => {
    const admin = await signIn(t, { role: 'admin' });
    const target = await createUser(t.app, { orgId: admin.user.orgId });
    const shown = () =>
      t.app.get(DataSource).getRepository(User).findOneByOrFail({ id: target.id });
    const before = await shown();
    for (const [body, fields] of [
      [{ role: null }, ['role']],
      [{ disabled: null }, ['disabled']],
      [{ role: null, disabled: null }, ['disabled', 'role']],
      [{ role: 'admin', disabled: null }, ['disabled']],
    ] as const) {
      const res = await t
        .http()
        .patch(`/api/v1/users/${target.id}`)
        .set('Cookie', admin.cookie)
        .send(body);
      expect([res.status, res.body.code]).toEqual([400, 'validation_failed']);
      const named = new Set((res.body.errors as { field: string }[]).map((e) => e.field));
      expect([...named].sort()).toEqual(fields);
    }
    expect(await shown()).toEqual(before);
    const created = await t
      .http()
      .post('/api/v1/users')
      .set('Cookie', admin.cookie)
      .send({ email: 'null.name@example.com', role: 'member', name: null });
    expect(created.status).toBe(400);
    expect(new Set((created.body.errors as { field: string }[]).map((e) => e.field))).toEqual(
      new Set(['name']),
    );
  });

  it('a member gets 403 on every admin route', async () => {
    const member = await signIn(t, { role: 'member' });
    const target = await createUser(t.app, { orgId: member.user.orgId });
    const calls = [
      t.http().get('/api/v1/users'),
      t.http().post('/api/v1/users').send({ email: 'x@example.com', role: 'member' }),
      t.http().patch(`/api/v1/users/${target.id}`).send({ role: 'admin' }),
    ];
    for (const call of calls) {
      const res = await call.set('Cookie', member.cookie);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('forbidden');
    }
  });

  it('an admin of org A gets 404 for org B’s user, and for a malformed id', async () => {
    const adminA = await signIn(t, { role: 'admin' });
    const userB = await createUser(t.app);
    for (const id of [userB.id, 'not-a-uuid']) {
      const res = await t
        .http()
        .patch(`/api/v1/users/${id}`)
        .set('Cookie', adminA.cookie)
        .send({ disabled: true });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('not_found');
    }
  });

  it('disabling an account ends its sessions; a role change shows in me at once', async () => {
    const org = await createOrg(t.app);
    const admin = await signIn(t, { orgId: org.id, role: 'admin' });
    const member = await signIn(t, { orgId: org.id, role: 'member' });
    await t
      .http()
      .patch(`/api/v1/users/${member.user.id}`)
      .set('Cookie', admin.cookie)
      .send({ role: 'admin' })
      .expect(200);
    const me = await t.http().get('/api/auth/me').set('Cookie', member.cookie).expect(200);
    expect(me.body.user.role).toBe('admin');
    await t
      .http()
      .patch(`/api/v1/users/${member.user.id}`)
      .set('Cookie', admin.cookie)
      .send({ disabled: true })
      .expect(200);
    await t.http().get('/api/auth/me').set('Cookie', member.cookie).expect(401);
    // Enabling it again does not bring the old session back.
    await t
      .http()
      .patch(`/api/v1/users/${member.user.id}`)
      .set('Cookie', admin.cookie)
      .send({ disabled: false })
      .expect(200);
    await t.http().get('/api/auth/me').set('Cookie', member.cookie).expect(401);
  });

  it('an admin cannot disable or demote themselves', async () => {
    const admin = await signIn(t, { role: 'admin' });
    for (const body of [{ disabled: true }, { role: 'member' }]) {
      const res = await t
        .http()
        .patch(`/api/v1/users/${admin.user.id}`)
        .set('Cookie', admin.cookie)
        .send(body);
      expect(res.status).toBe(409);
    }
  });

  it('an admin cannot disable themselves through an upper-case spelling of their id', async () => {
    const org = await createOrg(t.app);
    // Another active admin, so only the rule about oneself can refuse.
    await signIn(t, { orgId: org.id, role: 'admin' });
    const admin = await signIn(t, { orgId: org.id, role: 'admin' });
    for (const body of [{ disabled: true }, { role: 'member' }]) {
      const res = await t
        .http()
        .patch(`/api/v1/users/${admin.user.id.toUpperCase()}`)
        .set('Cookie', admin.cookie)
        .send(body);
      expect(res.status).toBe(409);
    }
    await t.http().get('/api/auth/me').set('Cookie', admin.cookie).expect(200);
  });
});
