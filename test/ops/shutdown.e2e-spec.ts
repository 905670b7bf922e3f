import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { processorEnv } from '../support/checkout';
import { FakeProcessor } from '../support/fake-processor';
import { jsonLines, ServerProcess, spawnServer } from '../support/server-process';

/**
 * SIGTERM as docs/operations.md says, on the real server in a child process (on the run's
 * database: its own embedded data directory, or the PostgreSQL one). The second signal is in
 * src/common/lifecycle/graceful-shutdown.spec.ts.
 */
// A child process boots the whole app under ts-node: seconds on a busy machine.
jest.setTimeout(120_000);

describe('graceful shutdown', () => {
  let fake: FakeProcessor;
  let server: ServerProcess | undefined;
  beforeAll(async () => {
    fake = await new FakeProcessor().start();
  });
  afterEach(async () => {
    await server?.cleanup();
    server = undefined;
    fake.reset();
  });
  afterAll(() => fake.stop());

  /**
   * A checkout whose processor call is under way once this resolves; its answer comes later (in
   * an object: an async function returning the promise itself would wait for it).
   */
  async function checkoutInFlight(s: ServerProcess): Promise<{ answer: Promise<Response> }> {
    const arrived = new Promise<void>((resolve) => {
      const previous = fake.onSessionRequest;
      fake.onSessionRequest = async (req) => {
        resolve();
        await previous?.(req);
      };
    });
    const answer = fetch(`${s.url}/api/lease/checkout`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({}),
    });
    answer.catch(() => undefined); // a hanging one is cut when the process exits
    await arrived;
    return { answer };
  }

  it('answers 503 to readiness and new requests while a request in flight completes, then exits 0', async () => {
    server = await spawnServer({ ...processorEnv(fake.url), SHUTDOWN_TIMEOUT_SECONDS: '20' });
    const s = server;
    let release!: () => void;
    fake.onSessionRequest = () => new Promise<void>((r) => (release = r));
    const { answer: checkout } = await checkoutInFlight(s);

    s.child.kill('SIGTERM');
    await s.waitForLine(/SIGTERM: draining/);
    const health = await fetch(`${s.url}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'error' });
    const refused = await fetch(`${s.url}/api/lease/checkout-config`);
    expect(refused.status).toBe(503);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await refused.json()).toMatchObject({ code: 'unavailable' });
    // The refusal carries the security headers every other answer carries.
    for (const answer of [refused, health]) {
      expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
      expect(answer.headers.get('content-security-policy')).toBe(
        "default-src 'none';frame-ancestors 'none'",
      );
      expect(answer.headers.get('cache-control')).toBe('no-store');
    }

    release();
    const answer = await checkout;
    expect(answer.status).toBe(200);
    expect(await answer.json()).toHaveProperty('subscription_id');
    expect(await s.exited).toBe(0);
    const stopped = jsonLines(s.lines).find((l) => /stopped cleanly/.test(String(l.msg)));
    expect(stopped).toMatchObject({ level: 30, context: 'Shutdown' });
    // The embedded database closed: its socket directory is gone with it.
    if (s.dataDir) expect(existsSync(join(s.dataDir, 'socket'))).toBe(false);
  });

  it('exits 1 at SHUTDOWN_TIMEOUT_SECONDS when a processor call never answers', async () => {
    server = await spawnServer({
      // Far longer than the deadline: only the deadline can end this process.
      ...processorEnv(fake.url, { STRIPE_TIMEOUT_MS: '60000', STRIPE_MAX_NETWORK_RETRIES: '0' }),
      SHUTDOWN_TIMEOUT_SECONDS: '2',
    });
    fake.mode = 'hang';
    await checkoutInFlight(server);
    server.child.kill('SIGTERM');
    expect(await server.exited).toBe(1);
    expect(server.lines.join('\n')).toMatch(/deadline with 1 request\(s\) still in flight/);
  });
});
