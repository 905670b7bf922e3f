import { ProbeController } from '../support/probe.controller';
import { createTestApp, TestApp } from '../support/test-app';

describe('HTTP stack: errors as problem details, body limits, headers', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ extra: { controllers: [ProbeController] } });
  });
  afterAll(() => t.close());

  const expectProblem = (res: {
    status: number;
    headers: Record<string, string>;
    body: unknown;
  }) => {
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: 'about:blank', status: res.status });
  };

  it('accepts a valid JSON body', async () => {
    const res = await t.http().post('/test/echo').send({ name: 'ok' }).expect(200);
    expect(res.body).toEqual({ name: 'ok' });
  });

  it('answers malformed JSON with 400 validation_failed', async () => {
    const res = await t
      .http()
      .post('/test/echo')
      .set('Content-Type', 'application/json')
      .send('{"name": "x",');
    expect(res.status).toBe(400);
    expectProblem(res);
    expect(res.body.code).toBe('validation_failed');
  });

  // Found by the reliability suite: 12 000 levels overflowed the validator's stack (a 500).
  it('answers a body nested deeper than 32 levels with 400 validation_failed', async () => {
    const res = await t
      .http()
      .post('/test/echo')
      .set('Content-Type', 'application/json')
      .send(`{"name":${'['.repeat(12_000)}${']'.repeat(12_000)}}`);
    expect(res.status).toBe(400);
    expectProblem(res);
    expect(res.body.code).toBe('validation_failed');
  });

  it('answers a 100 KiB body with 413 payload_too_large', async () => {
    const res = await t
      .http()
      .post('/test/echo')
      .send({ name: 'x'.repeat(100 * 1024) });
    expect(res.status).toBe(413);
    expectProblem(res);
    expect(res.body.code).toBe('payload_too_large');
  });

  it('allows up to 1 MiB on the webhook path only', async () => {
    // The probe route sits under a different prefix, so it gets the default limit...
    const big = { data: 'x'.repeat(100 * 1024) };
    await t.http().post('/test/large/api/payment-processor/webhook').send(big).expect(413);
    // ...and the real webhook path reads it: refused for its (absent) configuration, not its size.
    const res = await t.http().post('/api/payment-processor/webhook').send(big);
    expect(res.body.code).toBe('webhook_not_configured');
    const huge = { data: 'x'.repeat(1100 * 1024) };
    await t.http().post('/api/payment-processor/webhook').send(huge).expect(413);
  });

  it('answers a text/plain body with 415 unsupported_media_type', async () => {
    const res = await t.http().post('/test/echo').set('Content-Type', 'text/plain').send('name=x');
    expect(res.status).toBe(415);
    expectProblem(res);
    expect(res.body.code).toBe('unsupported_media_type');
  });

  it('lists every invalid field, and refuses unknown ones', async () => {
    const res = await t.http().post('/test/echo').send({ name: 5, email: 'nope', extra: true });
    expect(res.status).toBe(400);
    expectProblem(res);
    const fields = (res.body.errors as { field: string }[]).map((e) => e.field).sort();
    expect(fields).toEqual(expect.arrayContaining(['email', 'extra', 'name']));
  });

  // class-transformer skips a key the instance has as a method, and Nest strips `constructor`
  // and `prototype`: the whitelist never saw them, so they were accepted silently.
  it('refuses keys named like Object.prototype members as it refuses any unknown key', async () => {
    for (const key of ['toString', 'valueOf', 'hasOwnProperty', 'constructor', 'prototype']) {
      const res = await t
        .http()
        .post('/test/echo')
        .set('Content-Type', 'application/json')
        .send(`{"name":"ok","${key}":"x"}`);
      expect(res.status).toBe(400);
      expectProblem(res);
      expect(res.body).toMatchObject({
        code: 'validation_failed',
        errors: [{ field: key, message: `property ${key} should not exist` }],
      });
    }
  });

  it('hides an unexpected error behind a generic 500', async () => {
    const res = await t.http().post('/test/boom').send({});
    expect(res.status).toBe(500);
    expectProblem(res);
    expect(res.body.code).toBe('internal_error');
    expect(JSON.stringify(res.body)).not.toMatch(/hunter2|secret|at /);
  });

  it('answers an unknown route with 404 not_found', async () => {
    const res = await t.http().get('/nope');
    expect(res.status).toBe(404);
    expectProblem(res);
    expect(res.body.code).toBe('not_found');
  });

  it("names its own request id in X-Request-Id: a client's is not taken (test/ops/request-id)", async () => {
    const res = await t.http().get('/health/live').set('X-Request-Id', 'abc-123');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets security headers and allows only configured origins', async () => {
    const ok = await t
      .http()
      .options('/health')
      .set('Origin', 'http://localhost:3000')
      .set('Access-Control-Request-Method', 'GET');
    expect(ok.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(ok.headers['access-control-allow-credentials']).toBe('true');
    const foreign = await t
      .http()
      .options('/health')
      .set('Origin', 'https://evil.example')
      .set('Access-Control-Request-Method', 'GET');
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    const res = await t.http().get('/health/live');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toBe(
      "default-src 'none';frame-ancestors 'none'",
    );
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-powered-by']).toBeUndefined();
    // Pages get helmet's full set; a page that may be cached says so itself.
    const page = await t.http().get('/plans').expect(200);
    expect(page.headers['content-security-policy']).toMatch(/script-src 'self'/);
    expect(page.headers['cross-origin-opener-policy']).toBe('same-origin');
    expect(page.headers['cache-control']).not.toBe('no-store');
  });

  it('serves the API docs', async () => {
    const json = await t.http().get('/api/docs-json').expect(200);
    expect(json.body.openapi).toMatch(/^3\./);
    expect(Object.keys(json.body.paths)).toEqual(
      expect.arrayContaining(['/health', '/health/live']),
    );
    await t.http().get('/api/docs').expect(200).expect('Content-Type', /html/);
  });
});

describe('Rate limiting frame', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ extra: { controllers: [ProbeController] } });
  });
  afterAll(() => t.close());

  it('lets 10 requests a minute through, then 429 with Retry-After; X-Forwarded-For buys nothing', async () => {
    for (let i = 0; i < 10; i++) {
      await t.http().post('/test/limited').set('X-Forwarded-For', `10.0.0.${i}`).expect(200);
    }
    const res = await t.http().post('/test/limited').set('X-Forwarded-For', '10.9.9.9');
    expect(res.status).toBe(429);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body.code).toBe('rate_limited');
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    await t.http().get('/health/live').expect(200); // no global limit
  });
});
