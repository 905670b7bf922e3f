import { DataSource } from 'typeorm';
import { openSecret } from '../../src/outgoing-webhook/endpoints/outgoing-webhook-secrets';
import { DataKeyring } from '../../src/personal-data/data-keyring';
import { WebhookEndpointService } from '../../src/outgoing-webhook/endpoints/webhook-endpoint.service';
import { signIn } from '../support/auth';
import { craftedTimeCursors } from '../support/crafted-cursors';
import { eventually, verifies } from '../support/webhook-receiver';
import { addEndpoint, deliveriesOf, WebhookWorld, webhookWorld } from './support';

describe('outgoing webhooks: the endpoint API', () => {
  let w: WebhookWorld;
  beforeAll(async () => {
    w = await webhookWorld();
  });
  afterAll(() => w.close());

  const api = (method: 'get' | 'post' | 'patch' | 'delete', path: string, cookie: string) =>
    w.t.http()[method](`/api/v1/webhook-endpoints${path}`).set('Cookie', cookie);

  it('creates, shows, lists, changes and deletes an endpoint; the secret only at creation', async () => {
    const created = await api('post', '', w.admin.cookie)
      .send({ url: w.receiver.url, description: 'ops', event_types: ['subscription.paid'] })
      .expect(201);
    expect(created.body).toMatchObject({
      url: w.receiver.url,
      description: 'ops',
      event_types: ['subscription.paid'],
      enabled: true,
    });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const id = created.body.id as string;
    const got = await api('get', `/${id}`, w.admin.cookie).expect(200);
    expect(got.body.secret).toBeUndefined();
    const list = await api('get', '', w.admin.cookie).expect(200);
    expect((list.body.items as { id: string }[]).map((e) => e.id)).toContain(id);
    const patched = await api('patch', `/${id}`, w.admin.cookie)
      .send({ enabled: false, event_types: ['device.registered'] })
      .expect(200);
    expect(patched.body).toMatchObject({ enabled: false, event_types: ['device.registered'] });
    await api('delete', `/${id}`, w.admin.cookie).expect(204);
    await api('get', `/${id}`, w.admin.cookie).expect(404);
  });

  it('refuses members (403), strangers (401) and other organizations (404)', async () => {
    const mine = await addEndpoint(w.t, w.admin.cookie, { url: w.receiver.url });
    const member = await signIn(w.t, { orgId: w.fulfilmentOrgId, role: 'member' });
    for (const res of [
      await api('get', '', member.cookie),
      await api('post', '', member.cookie).send({ url: w.receiver.url }),
      await api('get', `/${mine.id}`, member.cookie),
    ]) {
      expect([res.status, res.body.code]).toEqual([403, 'forbidden']);
    }
    await w.t.http().get('/api/v1/webhook-endpoints').expect(401);
    const other = await signIn(w.t, { role: 'admin' });
    for (const res of [
      await api('get', `/${mine.id}`, other.cookie),
      await api('patch', `/${mine.id}`, other.cookie).send({ enabled: false }),
      await api('delete', `/${mine.id}`, other.cookie),
      await api('post', `/${mine.id}/rotate-secret`, other.cookie).send({}),
      await api('post', `/${mine.id}/test`, other.cookie).send({}),
      await api('get', `/${mine.id}/deliveries`, other.cookie),
      await api('get', '/not-a-uuid', other.cookie),
    ]) {
      expect([res.status, res.body.code]).toEqual([404, 'not_found']);
    }
    expect((await api('get', '', other.cookie).expect(200)).body.items).toEqual([]);
  });

  it('allows at most 10 endpoints per organization (409 limit_reached)', async () => {
    const admin = await signIn(w.t, { role: 'admin' });
    for (let i = 0; i < 10; i++) await addEndpoint(w.t, admin.cookie, { url: w.receiver.url });
    const res = await api('post', '', admin.cookie).send({ url: w.receiver.url }).expect(409);
    expect(res.body.code).toBe('limit_reached');
  });

  it('refuses bad bodies with 400 validation_failed', async () => {
    for (const body of [
      {},
      { url: 'not a url' },
      { url: w.receiver.url, event_types: ['webhook.test'] },
      { url: w.receiver.url, event_types: ['nope'] },
      { url: w.receiver.url, secret: 'mine' },
    ]) {
      const res = await api('post', '', w.admin.cookie).send(body);
      expect([res.status, res.body.code]).toEqual([400, 'validation_failed']);
    }
  });

  it("counts a URL's length as stored: normalised, where `é` becomes `%C3%A9`", async () => {
    const fits = `${w.receiver.url}/${'a'.repeat(2048 - w.receiver.url.length - 1)}`;
    const grows = `${w.receiver.url}/${'é'.repeat(2000 - w.receiver.url.length)}`;
    expect([fits.length, grows.length <= 2048, new URL(grows).href.length > 2048]).toEqual([
      2048,
      true,
      true,
    ]);
    const e = await addEndpoint(w.t, w.admin.cookie, { url: fits });
    for (const res of [
      await api('post', '', w.admin.cookie).send({ url: grows }),
      await api('patch', `/${e.id}`, w.admin.cookie).send({ url: grows }),
    ]) {
      expect([res.status, res.body.code]).toEqual([400, 'validation_failed']);
      expect(res.body.errors).toEqual([{ field: 'url', message: expect.stringMatching(/2048/) }]);
    }
    const shown = await api('get', `/${e.id}`, w.admin.cookie).expect(200);
    expect(shown.body.url).toBe(fits);
  });

  it('hands out only secrets that sign when rotations of one endpoint run at once', async () => {
    const e = await addEndpoint(w.t, w.admin.cookie, { url: w.receiver.url });
    const rotate = () => api('post', `/${e.id}/rotate-secret`, w.admin.cookie).send({});
    const handedOut: string[] = [];
    for (let round = 0; round < 5; round++) {
      const pair = await Promise.all([rotate(), rotate()]);
      const secrets = pair.map((r) => (expect(r.status).toBe(200), r.body.secret as string));
      // Serialised, each rotation keeps the one before it: both of a pair sign.
      expect((await signingSecrets(e.id)).sort()).toEqual([...secrets].sort());
      handedOut.push(...secrets);
    }
    const many = await Promise.all([rotate(), rotate(), rotate(), rotate()]);
    const latest = many.map((r) => r.body.secret as string);
    const signing = await signingSecrets(e.id);
    // Of four at once, the last two (in commit order) sign; never one from before them.
    expect(signing).toHaveLength(2);
    expect(latest).toEqual(expect.arrayContaining(signing));
    const sent = await api('post', `/${e.id}/test`, w.admin.cookie).send({}).expect(202);
    const d = await eventually('delivered', () =>
      w.receiver.received.find((r) => r.headers['webhook-id'] === sent.body.event_id),
    );
    expect(signing.map((secret) => verifies(secret, d))).toEqual([true, true]);
    expect(handedOut.some((secret) => verifies(secret, d))).toBe(false);
  });

  /** The endpoint's live secrets as stored (decrypted), the current one first. */
  async function signingSecrets(id: string): Promise<string[]> {
    const [row] = await w.t.app
      .get(DataSource)
      .query<{ current: string; previous: string | null }[]>(
        `SELECT secret_encrypted AS current, previous_secret_encrypted AS previous
          FROM webhook_endpoints WHERE id = $1`,
        [id],
      );
    const keyring = w.t.app.get(DataKeyring);
    return [row.current, row.previous]
      .filter((s): s is string => s !== null)
      .map((s) => openSecret(keyring, s));
  }

  // Found by a hostile client: @IsOptional() let null through to a service testing `!== undefined` (500).
  it('refuses null in an optional field with 400 naming it, and changes nothing', async () => {
    const admin = await signIn(w.t, { role: 'admin' });
    const e = await addEndpoint(w.t, admin.cookie, { url: w.receiver.url });
    const before = (await api('get', `/${e.id}`, admin.cookie).expect(200)).body as object;
    const sent = [
      api('post', '', admin.cookie).send({ url: w.receiver.url, event_types: null }),
      api('post', '', admin.cookie).send({ url: w.receiver.url, description: null }),
      api('patch', `/${e.id}`, admin.cookie).send({ event_types: null }),
      api('patch', `/${e.id}`, admin.cookie).send({ enabled: null, url: null }),
    ];
    const fields = [['event_types'], ['description'], ['event_types'], ['enabled', 'url']];
    for (const [i, req] of sent.entries()) {
      const res = await req;
      expect([res.status, res.body.code]).toEqual([400, 'validation_failed']);
      const named = new Set((res.body.errors as { field: string }[]).map((x) => x.field));
      expect([...named].sort()).toEqual(fields[i]);
    }
    expect((await api('get', `/${e.id}`, admin.cookie).expect(200)).body).toEqual(before);
    const list = await api('get', '', admin.cookie).expect(200);
    expect((list.body.items as { id: string }[]).map((x) => x.id)).toEqual([e.id]);
  });

  it('lists deliveries newest first a page at a time, and retries one (202)', async () => {
    const e = await addEndpoint(w.t, w.admin.cookie, { url: w.receiver.url });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      w.clock.advance(1);
      const res = await api('post', `/${e.id}/test`, w.admin.cookie).send({}).expect(202);
      ids.push(res.body.event_id as string);
    }
    const first = await api('get', `/${e.id}/deliveries?limit=2`, w.admin.cookie).expect(200);
    expect((first.body.items as { event_id: string }[]).map((d) => d.event_id)).toEqual([
      ids[2],
      ids[1],
    ]);
    const next = encodeURIComponent(first.body.next_cursor as string);
    const second = await api('get', `/${e.id}/deliveries?limit=2&cursor=${next}`, w.admin.cookie);
    expect(second.body).toMatchObject({ items: [{ event_id: ids[0] }], next_cursor: null });
    const bad = await api('get', `/${e.id}/deliveries?cursor=nope`, w.admin.cookie);
    expect([bad.status, bad.body.code]).toEqual([400, 'validation_failed']);
    for (const cursor of craftedTimeCursors(ids[0])) {
      const crafted = await api('get', `/${e.id}/deliveries?cursor=${cursor}`, w.admin.cookie);
      expect([crafted.status, crafted.body.code]).toEqual([400, 'validation_failed']);
    }
    await eventually('delivered', async () =>
      (await deliveriesOf(w.t, w.admin.cookie, e.id)).every((d) => d.status === 'delivered'),
    );
    const retried = await api('post', `/${e.id}/deliveries/${ids[0]}/retry`, w.admin.cookie)
      .send({})
      .expect(202);
    expect(retried.body).toEqual({ event_id: ids[0] });
    await eventually(
      'sent again',
      () => w.receiver.received.filter((d) => d.headers['webhook-id'] === ids[0]).length === 2,
    );
    const unknown = '00000000-0000-4000-8000-000000000000';
    await api('post', `/${e.id}/deliveries/${unknown}/retry`, w.admin.cookie).send({}).expect(404);
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const e = await addEndpoint(w.t, w.admin.cookie, { url: w.receiver.url });
    const rotated = await api('post', `/${e.id}/rotate-secret`, w.admin.cookie)
      .send({})
      .expect(200);
    const fresh = rotated.body.secret as string;
    expect(fresh).not.toBe(e.secret);
    const during = await api('post', `/${e.id}/test`, w.admin.cookie).send({}).expect(202);
    const d1 = await eventually('during overlap', () =>
      w.receiver.received.find((d) => d.headers['webhook-id'] === during.body.event_id),
    );
    expect(String(d1.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect([verifies(fresh, d1), verifies(e.secret, d1)]).toEqual([true, true]);
    w.clock.advance(24 * 3600 + 1);
    // The session is idle-expired by now: straight to the service, as the route would.
    const after = await w.t.app.get(WebhookEndpointService).sendTest(w.admin.orgId, e.id);
    const d2 = await eventually('after overlap', () =>
      w.receiver.received.find((d) => d.headers['webhook-id'] === after),
    );
    expect(String(d2.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect([verifies(fresh, d2), verifies(e.secret, d2)]).toEqual([true, false]);
  });
});
