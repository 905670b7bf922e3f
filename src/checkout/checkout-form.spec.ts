import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Stripe from 'stripe';
import { AppConfig } from '../config/app-config';
import { constantFormPart } from '../processor/form-body';
import { PaymentProcessorClient } from '../processor/payment-processor.client';
import { leaseSessionParams } from './checkout-session.params';

interface Received {
  body: string;
  headers: IncomingHttpHeaders;
}

/** The processor's API, answering every create with a session: records what the SDK sent. */
async function captureServer(received: Received[]): Promise<Server> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ id: 'cs_test_1', object: 'checkout.session', url: 'http://x/p' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return server;
}

/** The headers but the port-bearing Host. */
function withoutHost(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const copy = { ...headers };
  delete copy.host;
  return copy;
}

const awkward = "a+b c&d=e/f?g#h%5B[i]!'()*~é😀\u00a0%20;,:@$";

describe('the form body sent to the processor', () => {
  const received: Received[] = [];
  let server: Server;
  let ours: PaymentProcessorClient;
  let sdks: PaymentProcessorClient;

  beforeAll(async () => {
    server = await captureServer(received);
    const { port } = server.address() as AddressInfo;
    const config = AppConfig.fromEnv(
      {
        NODE_ENV: 'test',
        STRIPE_SECRET_KEY: 'sk_test_form',
        STRIPE_LEASE_PRICE_ID: 'price_lease',
        STRIPE_MONTHLY_PRICE_ID: 'price_monthly',
        STRIPE_API_BASE: `http://127.0.0.1:${port}`,
      },
      '1.2.3',
    );
    ours = new PaymentProcessorClient(config);
    sdks = new PaymentProcessorClient(config);
    await sdks.createCheckoutSession({ mode: 'payment' }, 'warm-up');
    // The same client with the SDK's own encoding and header: what was sent before form-body.ts.
    const raw = (sdks as unknown as { stripe: Stripe }).stripe;
    raw.checkout.sessions.requestDataProcessor = null;
    delete (raw as Partial<Stripe>).getClientUserAgent;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  /** The body and headers of one create by each client. */
  async function both(params: Stripe.Checkout.SessionCreateParams): Promise<Received[]> {
    received.length = 0;
    await sdks.createCheckoutSession(params, 'checkout-session-k1');
    await ours.createCheckoutSession(params, 'checkout-session-k1');
    return [...received];
  }

  const lease = (extra: { email?: string; coupon?: string; siteUrl?: string } = {}) =>
    leaseSessionParams({
      subscriptionId: '0b9a3c1e-5f7d-4e2a-9c1b-3d4e5f6a7b8c',
      leasePriceId: 'price_lease',
      monthlyPriceId: 'price_monthly',
      siteUrl: extra.siteUrl ?? 'http://localhost:3000',
      email: extra.email,
      coupon: extra.coupon,
    });

  it.each([
    ['without email or coupon', lease()],
    ['with both', lease({ email: "o'neil+x@example.com", coupon: 'beta-tester' })],
    [
      'with awkward text',
      lease({ email: awkward, coupon: awkward, siteUrl: `https://s/${awkward}` }),
    ],
  ])('is the bytes the SDK sends for a lease session %s, twice over', async (_what, params) => {
    for (let round = 0; round < 2; round++) {
      const [sdk, mine] = await both(params);
      expect(mine.body).toBe(sdk.body);
      expect(mine.body).toContain('custom_fields[2][dropdown][options][4][value]=stayingconnected');
    }
  });

  it('is the bytes the SDK sends for any shape of parameters', async () => {
    const params = {
      [awkward]: awkward,
      n: 0,
      f: 1.5,
      t: true,
      no: false,
      nil: null,
      gone: undefined,
      at: new Date('2026-11-26T03:00:00.999Z'),
      empty: {},
      none: [],
      list: ['x', undefined, null, { deep: [[1, 2], { k: awkward }] }],
      frozen: constantFormPart({ a: [1, { b: 'two words' }], c: null }),
    } as unknown as Stripe.Checkout.SessionCreateParams;
    const [sdk, mine] = await both(params);
    expect(mine.body).toBe(sdk.body);
  });

  it('sends the same headers as the SDK would, the client user agent included', async () => {
    const [sdk, mine] = await both(lease({ email: 'dana@example.com' }));
    expect(withoutHost(mine.headers)).toEqual(withoutHost(sdk.headers));
    expect(mine.headers['idempotency-key']).toBe('checkout-session-k1');
    expect(mine.headers['x-stripe-client-user-agent']).toContain('device-care-service');
  });
});
