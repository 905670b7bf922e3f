import { gzipSync } from 'node:zlib';
import { signIn } from '../support/auth';
import { ProbeController } from '../support/probe.controller';
import { listeningPort, rawRequest } from '../support/raw-http';
import { createTestApp, TestApp } from '../support/test-app';

/** What a security reviewer checks on an Express service, and the errors Express or Node raise. */
describe('HTTP platform (Express): its habits and its own errors', () => {
  let t: TestApp;
  let admin: string;
  beforeAll(async () => {
    t = await createTestApp({ extra: { controllers: [ProbeController] } });
    admin = (await signIn(t, { role: 'admin' })).cookie;
  });
  afterAll(() => t.close());

  const expectProblem = (
    res: { status: number; headers: Record<string, string>; body: unknown },
    status: number,
    code: string,
  ) => {
    expect(res.status).toBe(status);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.body).toMatchObject({ type: 'about:blank', status, code });
  };

  describe('Express habits', () => {
    it('sends no X-Powered-By and no ETag on API answers; static assets keep theirs', async () => {
      const list = await t.http().get('/api/v1/devices').set('Cookie', admin).expect(200);
      const live = await t.http().get('/health/live').expect(200);
      for (const res of [list, live]) {
        expect(res.headers['x-powered-by']).toBeUndefined();
        expect(res.headers.etag).toBeUndefined();
      }
      const js = await t.http().get('/plans/assets/plans.js').expect(200);
      expect(js.headers.etag).toBeDefined();
      expect(js.headers['x-powered-by']).toBeUndefined();
    });

    it('routes strictly: a trailing slash or another case is 404, never a second answer', async () => {
      for (const path of ['/health/live/', '/HEALTH/live', '/plans/']) {
        expectProblem(await t.http().get(path), 404, 'not_found');
      }
      const slash = await t.http().get('/api/v1/devices/').set('Cookie', admin);
      expectProblem(slash, 404, 'not_found');
    });

    it('refuses a gzip-compressed body with 415 on every route, the webhook too', async () => {
      const gz = gzipSync(JSON.stringify({ name: 'ok' }));
      for (const path of ['/test/echo', '/api/payment-processor/webhook']) {
        const res = await t
          .http()
          .post(path)
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', 'gzip')
          .send(gz);
        expectProblem(res, 415, 'unsupported_media_type');
      }
      // `identity` is no encoding at all.
      await t
        .http()
        .post('/test/echo')
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'identity')
        .send('{"name":"ok"}')
        .expect(200, { name: 'ok' });
    });

    it('refuses __proto__ and constructor.prototype keys with 400, and pollutes nothing', async () => {
      const bodies = [
        '{"name":"x","__proto__":{"polluted":true}}',
        '{"name":"x","\\u005f_proto__":{"polluted":true}}',
        '{"name":"x","nested":{"constructor":{"prototype":{"polluted":true}}}}',
      ];
      for (const body of bodies) {
        const res = await t
          .http()
          .post('/test/echo')
          .set('Content-Type', 'application/json')
          .send(body);
        expectProblem(res, 400, 'validation_failed');
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      }
    });
  });

  describe('errors the platform raises are problem details', () => {
    it('a path parameter with bad percent-encoding is 400 validation_failed', async () => {
      const device = await t.http().delete('/api/v1/devices/%E0%A4%A').set('Cookie', admin);
      expectProblem(device, 400, 'validation_failed');
      expect(JSON.stringify(device.body)).not.toContain('%E0');
      const user = await t.http().patch('/api/v1/users/%ZZ').set('Cookie', admin).send({});
      expectProblem(user, 400, 'validation_failed');
      // The same on any path, a route's or not.
      expectProblem(await t.http().get('/plans/assets/%E0%A4%A'), 400, 'validation_failed');
      expectProblem(await t.http().get('/nowhere/%'), 400, 'validation_failed');
    });

    it('an over-long path parameter is answered, and one past the header limit is 431', async () => {
      const long = await t
        .http()
        .delete(`/api/v1/devices/${'d'.repeat(8000)}`)
        .set('Cookie', admin);
      expectProblem(long, 404, 'not_found');
      const port = await listeningPort(t);
      const huge = await rawRequest(
        port,
        `DELETE /api/v1/devices/${'d'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      );
      expect(huge.status).toBe(431);
      expect(huge.headers['content-type']).toBe('application/problem+json');
      expect(JSON.parse(huge.body)).toMatchObject({ status: 431, code: 'headers_too_large' });
    });

    it('Content-Length with Transfer-Encoding is 400 and the connection is closed', async () => {
      const port = await listeningPort(t);
      const res = await rawRequest(
        port,
        'POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 13\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      );
      expect(res.status).toBe(400);
      expect(res.headers.connection).toBe('close');
      expect(JSON.parse(res.body)).toMatchObject({ status: 400, code: 'validation_failed' });
    });

    it('a directory under the static assets is 404, not a 500', async () => {
      for (const path of ['/plans/assets/', '/plans/assets', '/plans/assets/../']) {
        expectProblem(await t.http().get(path), 404, 'not_found');
      }
    });
  });
});
