import { closedPortUrl } from '../support/fake-processor';
import { jsonLines, ServerProcess, spawnServer } from '../support/server-process';

// A child process loads the whole app under ts-node: seconds on a busy machine.
jest.setTimeout(120_000);

/**
 * A boot that cannot go on (docs/operations.md): one JSON line at fatal naming the setting or
 * the resource, no stack, status 1. On the real server in a child process.
 */
describe('boot failures', () => {
  let server: ServerProcess | undefined;
  afterEach(async () => {
    await server?.cleanup();
    server = undefined;
  });

  async function failedBoot(env: Record<string, string>) {
    server = await spawnServer(env, { boot: false });
    const code = await server.exited;
    const lines = server.lines;
    return { code, lines, json: jsonLines(lines) };
  }

  it('stops a half-configured checkout, naming the missing settings in one line', async () => {
    const { code, lines, json } = await failedBoot({ STRIPE_SECRET_KEY: 'sk_test_half' });
    expect(code).toBe(1);
    expect(lines).toHaveLength(1);
    expect(json[0]).toMatchObject({
      level: 60,
      context: 'Boot',
      settings: ['STRIPE_LEASE_PRICE_ID', 'STRIPE_MONTHLY_PRICE_ID'],
    });
    expect(String(json[0].msg)).toMatch(
      /^boot failed: invalid configuration: STRIPE_LEASE_PRICE_ID/,
    );
    expect(lines[0]).not.toMatch(/\n| {4}at /);
  });

  it('names the database when it cannot be reached, without its URL or a stack', async () => {
    const url = new URL(await closedPortUrl());
    const { code, lines, json } = await failedBoot({
      DATABASE_URL: `postgres://app:secret-password@127.0.0.1:${url.port}/app`,
    });
    expect(code).toBe(1);
    expect(json).toHaveLength(1);
    expect(lines).toHaveLength(1);
    expect(json[0]).toMatchObject({
      level: 60,
      resource: 'the database',
      settings: ['DATABASE_URL'],
    });
    expect(String(json[0].msg)).toMatch(/ECONNREFUSED/);
    expect(lines[0]).not.toMatch(/secret-password| {4}at /);
  });
});
