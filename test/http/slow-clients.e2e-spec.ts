import { ProbeController } from '../support/probe.controller';
import { listeningPort, RawAnswer, rawRequest } from '../support/raw-http';
import { createTestApp, TestApp } from '../support/test-app';

/**
 * Slow clients cannot hold the server: a request that trickles its headers or its body is
 * answered 408 and closed once its time is up, even by a client that never closes its side.
 */
describe('slow clients', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp({
      env: {
        HTTP_HEADERS_TIMEOUT_SECONDS: '1',
        HTTP_REQUEST_TIMEOUT_SECONDS: '2',
        HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: '1',
      },
      extra: { controllers: [ProbeController] },
    });
    port = await listeningPort(t);
  });
  afterAll(() => t.close());

  const expectTimedOut = (res: RawAnswer) => {
    expect(res.status).toBe(408);
    expect(res.headers['content-type']).toBe('application/problem+json');
    expect(JSON.parse(res.body)).toMatchObject({ status: 408, code: 'request_timeout' });
  };

  it('closes a request whose body stalls, after the request timeout', async () => {
    const res = await rawRequest(
      port,
      'POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
        'Content-Length: 100\r\n\r\n{"name":',
    );
    expectTimedOut(res);
    // 2 s, checked every second.
    expect(res.closedAfterMs).toBeGreaterThanOrEqual(1500);
    expect(res.closedAfterMs).toBeLessThan(4500);
  });

  it('closes a request whose headers stall, after the headers timeout', async () => {
    const res = await rawRequest(port, 'GET /health/live HTTP/1.1\r\nHost: x\r\nX-Slow: ');
    expectTimedOut(res);
    expect(res.closedAfterMs).toBeLessThan(3500);
  });

  it('keeps answering while many stalled connections are open, and closes them all', async () => {
    const stalled = Array.from({ length: 50 }, () =>
      rawRequest(
        port,
        'POST /test/echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 10\r\n\r\n{',
      ),
    );
    await t.http().get('/health').expect(200);
    for (const res of await Promise.all(stalled)) expectTimedOut(res);
  });

  it('closes an idle kept-alive connection after the keep-alive timeout', async () => {
    const res = await rawRequest(port, 'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
    expect(res.status).toBe(200);
    expect(res.closedAfterMs).toBeGreaterThanOrEqual(900);
    expect(res.closedAfterMs).toBeLessThan(3500);
  });

  it('does not cut a slow answer: the limits are on receiving the request', async () => {
    await t.http().get('/test/slow').expect(200, { ok: true });
  });
});
