import {
  ResolvedAddress,
  WEBHOOK_RESOLVER,
} from '../../src/outgoing-webhook/endpoints/outgoing-webhook-address';
import { TEST_DATA_KEY } from '../support/test-keys';
import { eventually } from '../support/webhook-receiver';
import { addEndpoint, storedDelivery, WebhookWorld, webhookWorld } from './support';

/** One address of every range production refuses. */
const REFUSED = {
  loopback4: '127.0.0.1',
  loopback6: '::1',
  private10: '10.1.2.3',
  private172: '172.16.5.4',
  private192: '192.168.1.1',
  linkLocal4: '169.254.169.254',
  linkLocal6: 'fe80::1',
  uniqueLocal: 'fd12:3456::1',
  multicast4: '224.0.0.1',
  multicast6: 'ff02::1',
  unspecified4: '0.0.0.0',
  unspecified6: '::',
  mapped: '::ffff:10.0.0.1',
  compatible: '::127.0.0.1',
  reserved6: '::1:0:0:1',
  nat64: '64:ff9b::10.0.0.1',
  sixToFour: '2002:a00:1::1',
  teredo: '2001:0:4136:e378:8000:63bf:f5ff:fffe',
  documentation6: '2001:db8::1',
  siteLocal: 'fec0::1',
};
const PUBLIC = '93.184.216.34';

/** Names resolve only here: no DNS query, and no packet to any of these addresses. */
const names = new Map<string, string>();
const stubResolver = (host: string): Promise<ResolvedAddress[]> => {
  const address = names.get(host);
  if (!address) return Promise.reject(new Error(`ENOTFOUND ${host}`));
  return Promise.resolve([{ address, family: address.includes(':') ? 6 : 4 }]);
};

const PRODUCTION = {
  NODE_ENV: 'production',
  // The worker's database was written under the test key (docs/privacy.md: a boot must match it).
  DATA_ENCRYPTION_KEY: TEST_DATA_KEY,
};

describe('outgoing webhooks: where production may send', () => {
  let w: WebhookWorld;
  beforeAll(async () => {
    w = await webhookWorld(PRODUCTION, {
      override: (b) => b.overrideProvider(WEBHOOK_RESOLVER).useValue(stubResolver),
    });
  });
  afterAll(() => w.close());

  const create = (url: string) =>
    w.t.http().post('/api/v1/webhook-endpoints').set('Cookie', w.admin.cookie).send({ url });

  it('refuses http', async () => {
    names.set('plain.example.test', PUBLIC);
    const res = await create('http://plain.example.test/hook');
    expect([res.status, res.body.code]).toEqual([400, 'webhook_url_refused']);
  });

  it.each(Object.entries(REFUSED))('refuses %s by literal and by name', async (range, address) => {
    const literal = address.includes(':') ? `[${address}]` : address;
    const byLiteral = await create(`https://${literal}/hook`);
    expect([byLiteral.status, byLiteral.body.code]).toEqual([400, 'webhook_url_refused']);
    const host = `${range.toLowerCase()}.example.test`;
    names.set(host, address);
    const byName = await create(`https://${host}/hook`);
    expect([byName.status, byName.body.code]).toEqual([400, 'webhook_url_refused']);
  });

  it('refuses a name that does not resolve, accepts one that resolves to a public address', async () => {
    const missing = await create('https://nowhere.example.test/hook');
    expect([missing.status, missing.body.code]).toEqual([400, 'webhook_url_refused']);
    names.set('public.example.test', PUBLIC);
    await create('https://public.example.test/hook').expect(201);
  });

  // A resolver writes an IPv4-compatible address in hex (`::7f00:1` is ::127.0.0.1).
  it.each([REFUSED.private10, '::7f00:1', REFUSED.nat64])(
    'checks again at each attempt and sends nothing when the name now points inside (%s)',
    async (inside) => {
      const host = `rebinding-${inside.replaceAll(/[.:]/g, '-')}.example.test`;
      names.set(host, PUBLIC);
      const e = await addEndpoint(w.t, w.admin.cookie, { url: `https://${host}/x` });
      names.set(host, inside);
      const res = await w.t
        .http()
        .post(`/api/v1/webhook-endpoints/${e.id}/test`)
        .set('Cookie', w.admin.cookie)
        .send({})
        .expect(202);
      const d = await eventually('refused attempt recorded', async () => {
        const row = await storedDelivery(w.t, e.id, res.body.event_id as string);
        return row?.attempts === 1 ? row : undefined;
      });
      expect(d).toMatchObject({ status: 'pending', last_status_code: null });
      expect(d.last_error).toBe('refused_address');
    },
  );
});

describe('outgoing webhooks: OUTGOING_WEBHOOK_ALLOW_PRIVATE in production', () => {
  it('lifts both rules: http to 127.0.0.1 is registered and delivered', async () => {
    const w = await webhookWorld({ ...PRODUCTION, OUTGOING_WEBHOOK_ALLOW_PRIVATE: 'true' });
    try {
      const e = await addEndpoint(w.t, w.admin.cookie, { url: w.receiver.url });
      await w.t
        .http()
        .post(`/api/v1/webhook-endpoints/${e.id}/test`)
        .set('Cookie', w.admin.cookie)
        .send({})
        .expect(202);
      await eventually('delivered', () => w.receiver.of('webhook.test').length === 1);
    } finally {
      await w.close();
    }
  });
});
