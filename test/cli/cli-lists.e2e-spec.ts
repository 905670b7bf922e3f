import { COMMANDS } from '../../src/cli/cli-commands';
import { cliJson, runCli } from '../support/cli';
import { createDevice, createOrg, createUser, unique } from '../support/factories';
import { createTestApp, TestApp, testDatabaseUrl } from '../support/test-app';

interface Page {
  items: Record<string, unknown>[];
  next_cursor: string | null;
}

const ok = (argv: string[]) => cliJson<Page>(argv);

/** Every page of a list command, following next_cursor. */
async function allPages(argv: string[], limit: number): Promise<Page['items'][]> {
  const pages: Page['items'][] = [];
  let cursor: string | null = null;
  do {
    const page = await ok([
      ...argv,
      '--limit',
      String(limit),
      ...(cursor ? ['--cursor', cursor] : []),
    ]);
    expect(page.items.length).toBeLessThanOrEqual(limit);
    pages.push(page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return pages;
}

describe('command line: help', () => {
  it('--help names every command and exits 0; a command answers --help with its flags', async () => {
    for (const argv of [['--help'], ['-h'], ['help']]) {
      const help = await runCli(argv);
      expect(help.code).toBe(0);
      for (const name of Object.keys(COMMANDS)) expect(help.stdout).toContain(name);
    }
    for (const [name, command] of Object.entries(COMMANDS)) {
      const help = await runCli([name, '--help']);
      expect(help.code).toBe(0);
      expect(help.stderr).toBeUndefined();
      expect(help.stdout).toContain(`usage: ${command.usage}`);
      for (const flag of Object.keys(command.options)) expect(help.stdout).toContain(`--${flag}`);
    }
  });

  it('a usage mistake shows the usage line and exits 1', async () => {
    const result = await runCli(['user:list']);
    expect(result.code).toBe(1);
    expect(result.stdout).toBeUndefined();
    expect(result.stderr).toMatch(/missing --org\nusage: user:list --org ID/);
  });
});

describe('command line: lists', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The CLI reads its configuration from the environment, as it does in production.
    process.env.DATABASE_URL = testDatabaseUrl();
    process.env.DATABASE_POOL_SIZE = '2';
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('org:list gives every organization by name, a page at a time', async () => {
    const prefix = unique('list');
    const made = await Promise.all(['c', 'a', 'b'].map((n) => createOrg(t.app, `${prefix}-${n}`)));
    const seen = (await allPages(['org:list'], 2)).flat();
    const ours = seen.filter((o) => String(o.name).startsWith(prefix));
    expect(ours.map((o) => o.name)).toEqual(['a', 'b', 'c'].map((n) => `${prefix}-${n}`));
    expect(ours[0]).toEqual({
      id: made[1].id,
      name: `${prefix}-a`,
      created_at: made[1].createdAt.toISOString(),
      device_offline_after_seconds: null,
    });
    expect(new Set(seen.map((o) => o.id)).size).toBe(seen.length);
  });

  it("user:list gives an organization's accounts; an unknown organization exits 1", async () => {
    const org = await createOrg(t.app);
    const admin = await createUser(t.app, { orgId: org.id, role: 'admin' });
    const member = await createUser(t.app, { orgId: org.id, name: 'Pat' });
    await createUser(t.app); // another organization's
    const page = await ok(['user:list', '--org', org.id]);
    expect(page.items).toEqual([
      expect.objectContaining({ id: admin.id, role: 'admin', org_id: org.id, linked: false }),
      expect.objectContaining({ id: member.id, role: 'member', name: 'Pat' }),
    ]);
    for (const id of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      expect(await runCli(['user:list', '--org', id])).toMatchObject({
        code: 1,
        stderr: 'No such organization.',
      });
    }
  });

  it("device:list gives an organization's devices by device id, a page at a time", async () => {
    const org = await createOrg(t.app);
    const ids = ['dev-c', 'dev-a', 'dev-b'].map((d) => unique(d).toLowerCase());
    for (const deviceId of ids) await createDevice(t.app, org.id, { deviceId });
    await createDevice(t.app, (await createOrg(t.app)).id); // another organization's
    const pages = await allPages(['device:list', '--org', org.id], 2);
    expect(pages.map((p) => p.length)).toEqual([2, 1]);
    expect(pages.flat().map((d) => d.device_id)).toEqual([...ids].sort());
    expect(pages[0][0]).toMatchObject({ model: 'hub-2', provider: 'acme', status: 'active' });
  });

  it('checks flags with the API DTOs: the same messages, before anything boots', async () => {
    const org = (await createOrg(t.app)).id;
    const cases: [string[], RegExp][] = [
      [['org:list', '--limit', '0'], /limit: limit must not be less than 1/],
      [['org:list', '--limit', 'ten'], /limit: limit must be an integer/],
      [['device:list', '--org', org, '--limit', '201'], /limit must not be greater than 200/],
      [['subscription:list', '--status', 'lost'], /status: status must be one of/],
      [['org:list', '--cursor', 'bm90IG91cnM'], /Bad cursor\.\n {2}cursor: cursor is not/],
      [['user:add', '--org', org, '--email', 'nope', '--role', 'admin'], /email must be an email/],
      [['user:add', '--org', org, '--email', 'a@b.co', '--role', 'owner'], /role must be one of/],
      [['user:add', '--org', org, '--email', 'a@b.co', '--role', 'admin', '--name', ''], /name/],
      [['user:move', '--email', 'a@b.co', '--org', org, '--role', 'root'], /role must be one/],
      [['user:add', '--org', org, '--email', 'a\u0000@b.co', '--role', 'admin'], /NUL/],
    ];
    for (const [argv, reason] of cases) {
      const result = await runCli(argv);
      expect(result.code).toBe(1);
      expect(result.stdout).toBeUndefined();
      expect(result.stderr).toMatch(reason);
    }
  });
});
