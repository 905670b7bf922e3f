import { capturedLogs, isAccessLine, waitForAccessLine } from '../support/captured-logs';
import { ProbeController } from '../support/probe.controller';
import { listeningPort } from '../support/raw-http';
import { createTestApp, TestApp } from '../support/test-app';

interface Line {
  msg?: string;
  responseTime?: number;
  req?: { id?: string; url?: string; method?: string };
  res?: { statusCode?: number };
}

/** Health probes leave no access line; every other request leaves exactly one, however it ends. */
describe('access log', () => {
  let t: TestApp;
  // The requests come as through a trusted proxy on loopback, so each one's X-Request-Id names its lines.
  const { lines, options } = capturedLogs({ TRUST_PROXY: 'loopback' });
  beforeAll(async () => {
    t = await createTestApp({ ...options, extra: { controllers: [ProbeController] } });
  });
  afterAll(() => t.close());

  /** The access lines so far, once the one of the request `requestId` is there. */
  const accessLinesThrough = async (requestId: string): Promise<Line[]> =>
    (await waitForAccessLine<Line>(lines, requestId)).filter(isAccessLine);

  it('writes none for a thousand health probes', async () => {
    const base = `http://127.0.0.1:${await listeningPort(t)}`;
    const paths = ['/health', '/health/live', '/health?from=balancer'];
    for (let batch = 0; batch < 50; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => fetch(`${base}${paths[i % 3]}`)),
      );
      for (const res of answers) {
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
    }
    // One logged request after them: once its line is out, the probes' would be too.
    await t.http().get('/nope').set('X-Request-Id', 'after-probes').expect(404);
    const access = await accessLinesThrough('after-probes');
    expect(access.map((l) => l.req?.id)).toEqual(['after-probes']);
  });

  it('writes exactly one for every other request, whoever answers it', async () => {
    const json = 'application/json';
    const cases: [string, (id: string) => Promise<{ status: number }>][] = [
      ['page', (id) => t.http().get('/plans').set('X-Request-Id', id)],
      ['static asset', (id) => t.http().get('/plans/assets/plans.js').set('X-Request-Id', id)],
      ['unknown route', (id) => t.http().get('/nope').set('X-Request-Id', id)],
      ['bad path', (id) => t.http().get('/nowhere/%').set('X-Request-Id', id)],
      ['trailing slash', (id) => t.http().get('/health/').set('X-Request-Id', id)],
      ['no session', (id) => t.http().get('/api/v1/devices').set('X-Request-Id', id)],
      [
        'preflight',
        (id) =>
          t
            .http()
            .options('/api/v1/devices')
            .set('Origin', 'http://localhost:3000')
            .set('Access-Control-Request-Method', 'GET')
            .set('X-Request-Id', id),
      ],
      [
        'valid body',
        (id) => t.http().post('/test/echo').set('X-Request-Id', id).send({ name: 'a' }),
      ],
      [
        'not JSON',
        (id) => t.http().post('/test/echo').set('X-Request-Id', id).type('text/plain').send('a'),
      ],
      [
        'malformed JSON',
        (id) => t.http().post('/test/echo').set('X-Request-Id', id).type(json).send('{"name":'),
      ],
      [
        'too large',
        (id) =>
          t
            .http()
            .post('/test/echo')
            .set('X-Request-Id', id)
            .send({ name: 'x'.repeat(100 * 1024) }),
      ],
      ['fault', (id) => t.http().post('/test/boom').set('X-Request-Id', id).send({})],
    ];
    // Request ids are [A-Za-z0-9._:-]; the server echoes a well-formed one and logs under it.
    const idOf = (name: string) => `case-${name.replace(/\W+/g, '-')}`;
    const statuses: Record<string, number> = {};
    for (const [name, send] of cases) statuses[name] = (await send(idOf(name))).status;
    expect(statuses).toEqual({
      page: 200,
      'static asset': 200,
      'unknown route': 404,
      'bad path': 400,
      'trailing slash': 404,
      'no session': 401,
      preflight: 204,
      'valid body': 200,
      'not JSON': 415,
      'malformed JSON': 400,
      'too large': 413,
      fault: 500,
    });
    const access = (await accessLinesThrough(idOf('fault'))).filter(
      (l) => l.req?.id !== 'after-probes',
    );
    for (const [name] of cases) {
      const mine = access.filter((l) => l.req?.id === idOf(name));
      expect({ name, lines: mine.length }).toEqual({ name, lines: 1 });
      expect(mine[0].res?.statusCode).toBe(statuses[name]);
    }
    expect(access).toHaveLength(cases.length);
  });

  it("logs the application's lines of a request under its id, after its body was read", async () => {
    await t.http().post('/test/boom').set('X-Request-Id', 'case-app-line').send({}).expect(500);
    const mine = (
      await waitForAccessLine<Line & { context?: string }>(lines, 'case-app-line')
    ).filter((l) => l.req?.id === 'case-app-line');
    // The exception filter's line (written in the request's context) and the access line.
    expect(mine.map((l) => l.context ?? 'access')).toEqual(['Errors', 'access']);
  });
});
