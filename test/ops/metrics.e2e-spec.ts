import { randomUUID } from 'node:crypto';
import { createTestApp, TestApp } from '../support/test-app';
import { WEBHOOK_ENV } from '../support/webhook';

/** The value of one series in a scrape, or undefined when it is not there. */
function sample(text: string, name: string, labels: Record<string, string>): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && wanted.every((w) => l.includes(w)));
  return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('GET /metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: WEBHOOK_ENV });
  });
  afterAll(() => t.close());

  const scrape = async () => (await t.http().get('/metrics').expect(200)).text;

  it('serves the Prometheus text format with the process metrics and the contract metrics', async () => {
    const res = await t.http().get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain;.*version=0\.0\.4/);
    for (const name of [
      'process_resident_memory_bytes',
      'nodejs_eventloop_lag_seconds',
      'http_requests_total',
      'http_request_duration_seconds',
      'db_pool_connections_in_use',
      'db_pool_requests_waiting',
      'webhook_events_total',
      'subscriptions',
      'payment_processor_request_duration_seconds',
      'payment_processor_failures_total',
    ]) {
      expect(res.text).toContain(`# TYPE ${name} `);
    }
  });

  it('counts a request just made under its route pattern, never its raw id', async () => {
    const route = '/api/v1/subscriptions/:id';
    const labels = { method: 'GET', route, status: '401' };
    const before = sample(await scrape(), 'http_requests_total', labels) ?? 0;
    const id = randomUUID();
    await t.http().get(`/api/v1/subscriptions/${id}`).expect(401);
    const text = await scrape();
    expect(sample(text, 'http_requests_total', labels)).toBe(before + 1);
    expect(sample(text, 'http_request_duration_seconds_count', labels)).toBe(before + 1);
    expect(text).not.toContain(id);
  });

  it('puts every unrouted path under one label', async () => {
    const path = `/no-such-${randomUUID()}`;
    await t.http().get(path).expect(404);
    const text = await scrape();
    expect(
      sample(text, 'http_requests_total', { route: 'unmatched', status: '404' }),
    ).toBeGreaterThan(0);
    expect(text).not.toContain(path);
  });

  it('counts a refused webhook signature', async () => {
    const labels = { type: 'unknown', outcome: 'refused' };
    const before = sample(await scrape(), 'webhook_events_total', labels) ?? 0;
    await t
      .http()
      .post('/api/payment-processor/webhook')
      .set('Content-Type', 'application/json')
      .set('Stripe-Signature', 't=1,v1=00')
      .send('{}');
    expect(sample(await scrape(), 'webhook_events_total', labels)).toBe(before + 1);
  });

  it('reports subscriptions by status from the database', async () => {
    expect(await scrape()).toMatch(/^subscriptions\{status="paid"\} \d+$/m);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  const token = 'metrics-token-0123456789';
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_TOKEN: token } });
  });
  afterAll(() => t.close());

  it('answers 401 without the bearer token and 200 with it', async () => {
    await t.http().get('/metrics').expect(401);
    await t
      .http()
      .get('/metrics')
      .set('Authorization', 'Bearer wrong-token-0123456789')
      .expect(401);
    const res = await t.http().get('/metrics').set('Authorization', `Bearer ${token}`).expect(200);
    expect(res.text).toContain('http_requests_total');
  });
});

describe('GET /metrics with METRICS_ENABLED=false', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { METRICS_ENABLED: 'false' } });
  });
  afterAll(() => t.close());

  it('answers 404 as an unknown path does', async () => {
    const res = await t.http().get('/metrics').expect(404);
    expect(res.body).toMatchObject({ status: 404, code: 'not_found', detail: 'No such resource.' });
  });
});
