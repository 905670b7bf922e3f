import { runCli } from '../support/cli';
import { testDatabaseUrl } from '../support/test-app';

describe('command line', () => {
  beforeAll(() => {
    // The CLI reads its configuration from the environment, as it does in production.
    process.env.DATABASE_URL = testDatabaseUrl();
    process.env.DATABASE_POOL_SIZE = '2';
  });

  it('org:create prints the new organization as JSON and exits 0', async () => {
    const result = await runCli(['org:create', '--name', 'Acme Care']);
    expect(result.code).toBe(0);
    const org = JSON.parse(result.stdout ?? '') as { id: string; name: string };
    expect(org.name).toBe('Acme Care');
    expect(org.id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('exits 1 with the reason on a missing flag, an unknown flag or an unknown command', async () => {
    for (const argv of [['org:create'], ['org:create', '--nam', 'x'], ['nope'], []]) {
      const result = await runCli(argv);
      expect(result.code).toBe(1);
      expect(result.stdout).toBeUndefined();
      expect(result.stderr).toBeTruthy();
    }
  });

  it('exits 1 when the service refuses the value', async () => {
    const result = await runCli(['org:create', '--name', '   ']);
    expect(result).toMatchObject({ code: 1 });
    expect(result.stderr).toMatch(/1 to 200 characters/);
  });

  const created = async (argv: string[]) => {
    const result = await runCli(argv);
    expect(result.code).toBe(0);
    return JSON.parse(result.stdout ?? '') as { id: string };
  };

  it('user:add of a taken email exits 1 saying so, whichever path hit the unique index', async () => {
    const org = await created(['org:create', '--name', 'Dup Org']);
    const email = `dup-${Date.now()}@example.com`;
    await created(['user:add', '--org', org.id, '--email', email, '--role', 'member']);
    const again = await runCli(['user:add', '--org', org.id, '--email', email, '--role', 'admin']);
    expect(again).toMatchObject({ code: 1, stderr: 'An account with this email already exists.' });
  });

  it('user:move never leaves an organization without an active admin', async () => {
    const [from, to] = [
      await created(['org:create', '--name', 'From Org']),
      await created(['org:create', '--name', 'To Org']),
    ];
    const email = `last-admin-${Date.now()}@example.com`;
    await created(['user:add', '--org', from.id, '--email', email, '--role', 'admin']);
    for (const argv of [
      ['user:move', '--email', email, '--org', to.id],
      ['user:move', '--email', email, '--org', from.id, '--role', 'member'],
    ]) {
      const refused = await runCli(argv);
      expect(refused).toMatchObject({ code: 1 });
      expect(refused.stderr).toMatch(/must keep an active admin/);
    }
    const second = `second-admin-${Date.now()}@example.com`;
    await created(['user:add', '--org', from.id, '--email', second, '--role', 'admin']);
    await created(['user:move', '--email', email, '--org', to.id]);
  });
});
