import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppConfig } from '../config/app-config';
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

const awkward = "a+b c&d=e/f?g#h%5B[i]!'()*~é😀\u00a0%20;,:@$";

/**
 * What the processor receives for a lease session, sent by the SDK with its own encoding: every
 * field of docs/checkout.md, any text the buyer typed back as typed, and the idempotency key.
 */
describe('the checkout session the processor receives', () => {
  const received: Received[] = [];
  let server: Server;
  let client: PaymentProcessorClient;

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
    client = new PaymentProcessorClient(config);
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const subscriptionId = '0b9a3c1e-5f7d-4e2a-9c1b-3d4e5f6a7b8c';
  /** The form the processor parses, as name/value pairs in order, and the request's headers. */
  async function send(extra: { email?: string; coupon?: string; siteUrl?: string } = {}) {
    received.length = 0;
    const params = leaseSessionParams({
      subscriptionId,
      leasePriceId: 'price_lease',
      monthlyPriceId: 'price_monthly',
      siteUrl: extra.siteUrl ?? 'http://localhost:3000',
      email: extra.email,
      coupon: extra.coupon,
    });
    await client.createCheckoutSession(params, `checkout-session-${subscriptionId}`);
    const [request] = received;
    return { form: [...new URLSearchParams(request.body)], headers: request.headers };
  }

  it('carries the line items, metadata, custom fields and pages, in brackets', async () => {
    const { form } = await send();
    expect(form).toEqual(
      expect.arrayContaining([
        ['mode', 'subscription'],
        ['line_items[0][price]', 'price_lease'],
        ['line_items[1][price]', 'price_monthly'],
        ['phone_number_collection[enabled]', 'true'],
        ['shipping_address_collection[allowed_countries][0]', 'US'],
        ['custom_fields[0][key]', 'recipient_name'],
        ['custom_fields[2][dropdown][options][4][value]', 'stayingconnected'],
        ['client_reference_id', subscriptionId],
        ['metadata[product]', 'lease'],
        ['metadata[subscription_id]', subscriptionId],
        ['subscription_data[metadata][subscription_id]', subscriptionId],
        ['success_url', 'http://localhost:3000/plans/success?session_id={CHECKOUT_SESSION_ID}'],
      ]),
    );
    expect(form.map(([name]) => name)).not.toContain('customer_email');
    expect(form.map(([name]) => name)).not.toContain('discounts[0][coupon]');
  });

  it('hands on awkward text as typed', async () => {
    const { form } = await send({
      email: awkward,
      coupon: awkward,
      siteUrl: `https://s/${awkward}`,
    });
    expect(form).toEqual(
      expect.arrayContaining([
        ['customer_email', awkward],
        ['discounts[0][coupon]', awkward],
        ['cancel_url', `https://s/${awkward}/plans/cancel`],
      ]),
    );
  });

  it('sends the idempotency key and names this service in the client user agent', async () => {
    const { headers } = await send({ email: 'dana@example.com' });
    expect(headers['idempotency-key']).toBe(`checkout-session-${subscriptionId}`);
    expect(headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(headers['x-stripe-client-user-agent']).toContain('device-care-service');
  });
});
