import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import Stripe from 'stripe';
import { DevProcessor, startDevProcessor } from './processor-server';

const SECRET_KEY = 'sk_test_dev_processor_spec';
const WEBHOOK_SECRET = 'whsec_dev_processor_spec';

interface Received {
  headers: IncomingHttpHeaders;
  body: string;
}

/** The service's webhook route, as far as the processor can tell: it takes every event. */
async function fakeService(received: Received[]): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"received":true}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const address = server.address();
  return {
    url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
    server,
  };
}

describe('the development payment processor', () => {
  let processor: DevProcessor;
  let service: { url: string; server: Server };
  let stripe: Stripe;
  const received: Received[] = [];

  beforeAll(async () => {
    service = await fakeService(received);
    processor = await startDevProcessor({
      port: 0,
      serviceUrl: service.url,
      secretKey: SECRET_KEY,
      webhookSecret: WEBHOOK_SECRET,
      prices: {
        price_lease: { name: 'Lease', unitAmount: 24900, interval: null },
        price_month: { name: 'Monthly', unitAmount: 5000, interval: 'month' },
      },
      coupons: ['welcome'],
      log: () => {},
    });
    const base = new URL(processor.url);
    stripe = new Stripe(SECRET_KEY, {
      host: base.hostname,
      port: base.port,
      protocol: 'http',
      maxNetworkRetries: 0,
    });
  });
  afterAll(async () => {
    await processor.close();
    await new Promise((r) => service.server.close(r));
  });
  beforeEach(() => (received.length = 0));

  const params = (subscriptionId: string): Stripe.Checkout.SessionCreateParams => ({
    mode: 'subscription',
    line_items: [
      { price: 'price_lease', quantity: 1 },
      { price: 'price_month', quantity: 1 },
    ],
    customer_email: 'kim@example.com',
    client_reference_id: subscriptionId,
    metadata: { product: 'lease', subscription_id: subscriptionId },
    custom_fields: [
      {
        key: 'recipient_name',
        label: { type: 'custom', custom: 'Care recipient name' },
        type: 'text',
      },
    ],
    success_url: 'http://site.test/plans/success?session_id={CHECKOUT_SESSION_ID}',
    cancel_url: 'http://site.test/plans/cancel',
  });

  /** Submits the hosted page's form as a browser would; answers the redirect it gets. */
  async function submit(url: string, action: 'pay' | 'cancel', form: Record<string, string> = {}) {
    const res = await fetch(`${url}/${action}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form).toString(),
      redirect: 'manual',
    });
    return { status: res.status, location: res.headers.get('location') };
  }

  it('opens a session through the SDK and serves its hosted page', async () => {
    const session = await stripe.checkout.sessions.create(params('sub-1'), {
      idempotencyKey: 'k1',
    });
    expect(session).toMatchObject({ status: 'open', client_reference_id: 'sub-1' });
    const again = await stripe.checkout.sessions.create(params('sub-1'), { idempotencyKey: 'k1' });
    expect(again.id).toBe(session.id);
    const page = await fetch(session.url!);
    expect(page.status).toBe(200);
    await expect(page.text()).resolves.toMatch(/Lease.*\$249\.00.*Monthly.*\$50\.00 a month/s);
  });

  it('Pay sends a checkout.session.completed signed as the processor signs, then redirects', async () => {
    const session = await stripe.checkout.sessions.create(params('sub-2'));
    const paid = await submit(session.url!, 'pay', {
      email: 'kim@example.com',
      name: 'Kim Buyer',
      phone: '+15555550100',
      ship_name: 'Lee Buyer',
      ship_line1: '2 Oak Rd',
      ship_city: 'Salem',
      ship_state: 'OR',
      ship_postal_code: '97301',
      ship_country: 'US',
      field_recipient_name: 'Lee Buyer',
    });
    expect(paid).toEqual({
      status: 303,
      location: `http://site.test/plans/success?session_id=${session.id}`,
    });
    expect(received).toHaveLength(1);
    const signature = String(received[0].headers['stripe-signature']);
    const event = Stripe.webhooks.constructEvent(received[0].body, signature, WEBHOOK_SECRET);
    expect(event.type).toBe('checkout.session.completed');
    const completed = event.data.object as Stripe.Checkout.Session;
    expect(completed).toMatchObject({
      id: session.id,
      payment_status: 'paid',
      client_reference_id: 'sub-2',
      customer_details: { email: 'kim@example.com', name: 'Kim Buyer' },
      collected_information: { shipping_details: { address: { postal_code: '97301' } } },
    });
    expect(completed.custom_fields[0].text?.value).toBe('Lee Buyer');
    const retrieved = await stripe.checkout.sessions.retrieve(session.id, {
      expand: ['subscription'],
    });
    expect(retrieved.status).toBe('complete');
    expect((retrieved.subscription as Stripe.Subscription).id).toBe(completed.subscription);
    expect((await fetch(session.url!)).status).toBe(410);
  });

  it('Cancel sends checkout.session.expired and redirects to the cancel page', async () => {
    const session = await stripe.checkout.sessions.create(params('sub-3'));
    await expect(submit(session.url!, 'cancel')).resolves.toEqual({
      status: 303,
      location: 'http://site.test/plans/cancel',
    });
    const event = JSON.parse(received[0].body) as Stripe.Event;
    expect(event.type).toBe('checkout.session.expired');
    expect((await stripe.checkout.sessions.retrieve(session.id)).status).toBe('expired');
  });

  it('refuses what the processor refuses: a wrong key, an unknown price or coupon', async () => {
    const base = new URL(processor.url);
    const wrong = new Stripe('sk_test_wrong', {
      host: base.hostname,
      port: base.port,
      protocol: 'http',
    });
    await expect(wrong.checkout.sessions.create(params('sub-4'))).rejects.toMatchObject({
      statusCode: 401,
    });
    const badPrice = { ...params('sub-4'), line_items: [{ price: 'price_nope', quantity: 1 }] };
    await expect(stripe.checkout.sessions.create(badPrice)).rejects.toMatchObject({
      statusCode: 400,
      param: 'line_items[0][price]',
    });
    const coupon = { ...params('sub-4'), discounts: [{ coupon: 'nope' }] };
    await expect(stripe.checkout.sessions.create(coupon)).rejects.toMatchObject({
      statusCode: 400,
      param: 'discounts[0][coupon]',
    });
    await expect(stripe.checkout.sessions.retrieve('cs_test_nope')).rejects.toMatchObject({
      statusCode: 404,
    });
  });

  it('deletes the customer a Pay made, once, through the SDK (erasure); others are 404', async () => {
    const session = await stripe.checkout.sessions.create(params('sub-5'));
    await submit(session.url!, 'pay', { email: 'kim@example.com', name: 'Kim Buyer' });
    const completed = JSON.parse(received[0].body) as Stripe.Event;
    const customer = (completed.data.object as Stripe.Checkout.Session).customer as string;
    expect(customer).toMatch(/^cus_dev_/);
    await expect(stripe.customers.del(customer)).resolves.toMatchObject({
      id: customer,
      object: 'customer',
      deleted: true,
    });
    expect(processor.deletedCustomers).toEqual([customer]);
    const again = { statusCode: 404, code: 'resource_missing' };
    await expect(stripe.customers.del(customer)).rejects.toMatchObject(again);
    await expect(stripe.customers.del('cus_never_made')).rejects.toMatchObject(again);
    expect(processor.deletedCustomers).toEqual([customer]);
  });
});
