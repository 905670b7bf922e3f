import { apiClient } from '../support/api-client';
import { signIn } from '../support/auth';
import { capturedLogs, waitForAccessLine } from '../support/captured-logs';
import { unique } from '../support/factories';
import { createTestApp, TestApp } from '../support/test-app';

interface Line {
  responseTime?: number;
  req?: { id?: string; method?: string; url?: string };
}

/**
 * CONTRACT.md section 9, "the trail's words are the service's": `request_id` in logs and audit
 * events is the service's own unless the request came through a trusted proxy (TRUST_PROXY, the
 * immediate peer among its addresses) with an `X-Request-Id` of `[A-Za-z0-9._-]{1,64}`. The
 * answer's X-Request-Id is the id used. The tests' requests come from 127.0.0.1.
 */
const SENT = 'Mary.Smith-62701-lives-alone';

describe.each([
  ['no proxy trusted', {}, false],
  ['a proxy trusted, not this peer', { TRUST_PROXY: '10.0.0.0/8' }, false],
  ['loopback trusted (the peer)', { TRUST_PROXY: 'loopback' }, true],
  ['one hop trusted', { TRUST_PROXY: '1' }, true],
])('X-Request-Id with %s', (_name, env: Record<string, string>, honoured) => {
  let t: TestApp;
  let admin: { cookie: string };
  const { lines, options } = capturedLogs(env);
  beforeAll(async () => {
    t = await createTestApp(options);
    admin = await signIn(t, { role: 'admin' });
  });
  afterAll(() => t.close());

  /** Registers a device sending `sent`; the id the answer names, its audit event's and its access line's. */
  async function idsOf(sent: string) {
    const from = lines.length;
    const res = await t
      .http()
      .post('/api/v1/devices')
      .set('Cookie', admin.cookie)
      .set('X-Request-Id', sent)
      .send({ device_id: unique('rid'), model: 'hub-2', provider: 'acme' })
      .expect(201);
    const answered = res.headers['x-request-id'];
    const { body } = await apiClient(t)('get', '/api/v1/audit-events', {
      expect: 200,
      headers: { Cookie: admin.cookie },
      query: { action: 'device.registered', limit: 1 },
    });
    const access = await waitForAccessLine<Line>(lines, answered, { from });
    return {
      answered,
      // The newest of the admin's organization (its own, made for this suite).
      audited: body.items.map((e) => e.request_id),
      logged: access
        .filter((l) => l.responseTime !== undefined && l.req?.method === 'POST')
        .map((l) => l.req?.id),
    };
  }

  const own = expect.stringMatching(/^[0-9a-f-]{36}$/);

  it(
    honoured ? 'uses a well-formed id the proxy passed on' : 'uses its own id, never the sent one',
    async () => {
      const ids = await idsOf(SENT);
      const expected = honoured ? SENT : own;
      expect(ids).toEqual({ answered: expected, audited: [ids.answered], logged: [ids.answered] });
    },
  );

  it.each([
    ['too long', 'a'.repeat(65)],
    ['a colon', 'abc:123'],
    ['a space', 'Mary Smith'],
    ['a slash', 'a/b'],
  ])('uses its own id for one with %s', async (_what, sent) => {
    const ids = await idsOf(sent);
    expect(ids).toEqual({ answered: own, audited: [ids.answered], logged: [ids.answered] });
  });

  it('makes a new id for each request that brings none', async () => {
    const [a, b] = await Promise.all(
      [0, 1].map(
        async () => (await t.http().get('/health/live').expect(200)).headers['x-request-id'],
      ),
    );
    expect([a, b]).toEqual([own, own]);
    expect(a).not.toBe(b);
  });
});
