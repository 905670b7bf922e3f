import { INTERCEPTORS_METADATA } from '@nestjs/common/constants';
import { NoStoreInterceptor } from '../../src/common/http/no-store.decorator';
import { signIn, subjectFor } from '../support/auth';
import { createPendingSubscription, createUser } from '../support/factories';
import { appRoutes } from '../support/routes';
import { createFulfilmentOrg, LIFECYCLE_ENV, newFulfilmentOrgId } from '../support/subscriptions';
import { sharedIdentityProvider } from '../support/identity-provider';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Contract section 11: answers that carry personal data (emails, names, care data, sessions'
 * addresses) or a secret send `Cache-Control: no-store`, declared once per controller or route
 * with `@NoStore()`, so no shared cache or browser history keeps them.
 */
describe('Cache-Control: no-store on answers with personal data', () => {
  const fulfilmentOrgId = newFulfilmentOrgId();
  let t: TestApp;
  let admin: { cookie: string; user: { id: string; email: string } };
  beforeAll(async () => {
    t = await createTestApp({ env: { ...LIFECYCLE_ENV, FULFILMENT_ORG_ID: fulfilmentOrgId } });
    await createFulfilmentOrg(t.app, fulfilmentOrgId);
    admin = await signIn(t, { orgId: fulfilmentOrgId, role: 'admin' });
  });
  afterAll(() => t.close());

  const noStore = (res: { headers: Record<string, string> }) =>
    expect(res.headers['cache-control']).toBe('no-store');

  it('is declared on exactly the routes that hand out personal data or a secret', () => {
    const declared = appRoutes(t)
      .filter((r) => {
        const on = (target: object) =>
          ((Reflect.getMetadata(INTERCEPTORS_METADATA, target) ?? []) as unknown[]).includes(
            NoStoreInterceptor,
          );
        const handler = (r.controller.prototype as Record<string, object>)[r.handlerName];
        return on(r.controller) || on(handler);
      })
      .map((r) => `${r.method.toUpperCase()} ${r.path}`)
      .sort();
    expect(declared).toEqual(
      [
        'GET /api/v1/subscriptions',
        'GET /api/v1/subscriptions/:id',
        'GET /api/v1/subscriptions/:id/export',
        'POST /api/v1/subscriptions/:id/erase',
        'PUT /api/v1/subscriptions/:id/device',
        'GET /api/v1/audit-events',
        'GET /api/v1/users',
        'POST /api/v1/users',
        'PATCH /api/v1/users/:id',
        'POST /api/v1/users/:id/revoke-sessions',
        'POST /api/auth/login',
        'GET /api/auth/me',
        'POST /api/auth/refresh',
        'GET /api/auth/sessions',
        'POST /api/auth/sessions/revoke-others',
        'DELETE /api/auth/sessions/:id',
        'POST /api/v1/webhook-endpoints',
        'GET /api/v1/webhook-endpoints',
        'GET /api/v1/webhook-endpoints/:id',
        'PATCH /api/v1/webhook-endpoints/:id',
        'DELETE /api/v1/webhook-endpoints/:id',
        'POST /api/v1/webhook-endpoints/:id/rotate-secret',
        'POST /api/v1/webhook-endpoints/:id/test',
        'GET /api/v1/webhook-endpoints/:id/deliveries',
        'POST /api/v1/webhook-endpoints/:id/deliveries/:event_id/retry',
      ].sort(),
    );
  });

  it('on the subscription list, detail, export, erase and shipping, errors included', async () => {
    const sub = await createPendingSubscription(t.app);
    const http = () => t.http();
    const base = `/api/v1/subscriptions`;
    for (const res of [
      await http().get(base).set('Cookie', admin.cookie).expect(200),
      await http().get(`${base}/${sub.id}`).set('Cookie', admin.cookie).expect(200),
      await http().get(`${base}/${sub.id}/export`).set('Cookie', admin.cookie).expect(200),
      await http().post(`${base}/${sub.id}/erase`).set('Cookie', admin.cookie).send({}).expect(200),
      // No such device (and a pending record): the refusal leaves with the header too.
      await http()
        .put(`${base}/${sub.id}/device`)
        .set('Cookie', admin.cookie)
        .send({ device_id: 'nothing-here' })
        .expect((r) => expect([404, 409]).toContain(r.status)),
      await http().get(`${base}/${sub.id}x`).set('Cookie', admin.cookie).expect(404),
    ])
      noStore(res);
  });

  it('on the audit events, the users and the webhook endpoints', async () => {
    const member = await createUser(t.app, { orgId: fulfilmentOrgId });
    const http = () => t.http();
    const endpoint = await http()
      .post('/api/v1/webhook-endpoints')
      .set('Cookie', admin.cookie)
      .send({ url: 'http://127.0.0.1:9/hook' })
      .expect(201);
    noStore(endpoint);
    for (const res of [
      await http().get('/api/v1/audit-events').set('Cookie', admin.cookie).expect(200),
      await http().get('/api/v1/users').set('Cookie', admin.cookie).expect(200),
      await http()
        .patch(`/api/v1/users/${member.id}`)
        .set('Cookie', admin.cookie)
        .send({ role: 'member' })
        .expect(200),
      await http()
        .post(`/api/v1/users/${member.id}/revoke-sessions`)
        .set('Cookie', admin.cookie)
        .send({})
        .expect(200),
      await http().get('/api/v1/webhook-endpoints').set('Cookie', admin.cookie).expect(200),
      await http()
        .post(`/api/v1/webhook-endpoints/${endpoint.body.id}/rotate-secret`)
        .set('Cookie', admin.cookie)
        .send({})
        .expect(200),
    ])
      noStore(res);
  });

  it('on sign-in, me, refresh and the sessions', async () => {
    const user = await createUser(t.app);
    const idp = await sharedIdentityProvider();
    const idToken = await idp.token({ claims: { email: user.email, sub: subjectFor(user.email) } });
    const login = await t.http().post('/api/auth/login').send({ id_token: idToken }).expect(200);
    noStore(login);
    const cookie = login.headers['set-cookie'][0].split(';')[0];
    noStore(await t.http().get('/api/auth/me').set('Cookie', cookie).expect(200));
    noStore(await t.http().get('/api/auth/sessions').set('Cookie', cookie).expect(200));
    noStore(
      await t
        .http()
        .post('/api/auth/sessions/revoke-others')
        .set('Cookie', cookie)
        .send({})
        .expect(200),
    );
    const refreshed = await t.http().post('/api/auth/refresh').set('Cookie', cookie).expect(200);
    noStore(refreshed);
  });
});
