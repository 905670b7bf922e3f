import { hold, HALF_SENT_CHECKOUT, PATIENT_CLIENTS } from '../support/held-connection';
import { jsonLines, ServerProcess, spawnServer } from '../support/server-process';

/**
 * SIGTERM with connections that carry no finished request (docs/operations.md, shutdown): a
 * silent TCP connection, an idle keep-alive one and a request whose body stops half-way must not
 * hold the process until SHUTDOWN_TIMEOUT_SECONDS (which would exit 1).
 */
jest.setTimeout(120_000);

describe('shutdown with connections that carry no finished request', () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.cleanup();
    server = undefined;
  });

  it('closes silent, idle and half-sent connections, answers the half-sent one 503, and exits 0', async () => {
    server = await spawnServer(PATIENT_CLIENTS);
    const s = server;
    const silent = await hold(s.url, '');
    const keepAlive = await hold(s.url, 'GET /health/live HTTP/1.1\r\nHost: x\r\n\r\n');
    const halfSent = await hold(s.url, HALF_SENT_CHECKOUT);
    // The keep-alive one has its answer and is idle; the half-sent one gets a moment to reach
    // the app (the drain line below shows it did).
    await new Promise<void>((r) => keepAlive.socket.once('data', () => r()));
    await new Promise((r) => setTimeout(r, 500));

    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    await Promise.all([silent.closed, keepAlive.closed, halfSent.closed]);
    expect(halfSent.received()).toMatch(/^HTTP\/1\.1 503 /);
    expect(halfSent.received()).toMatch(/connection: close/i);
    expect(halfSent.received()).toMatch(/"code":"unavailable"/);
    expect(silent.received()).toBe('');
    expect(s.lines.join('\n')).toMatch(/draining, health answers 503; 1 request\(s\) in flight/);
    expect(s.lines.join('\n')).toMatch(/answered 503 to 1 request\(s\) whose body had not arrived/);
    const stopped = jsonLines(s.lines).find((l) => /stopped cleanly/.test(String(l.msg)));
    expect(stopped).toMatchObject({ context: 'Shutdown' });
  });
});
