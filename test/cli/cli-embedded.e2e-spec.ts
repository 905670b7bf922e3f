import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectMigrateFromEmpty, runCli } from '../support/cli';
import { describeEmbeddedTier } from '../support/tiers';

/** The CLI as an operator runs it with no settings at all: the embedded database in its directory. */
describeEmbeddedTier('command line on the embedded default (no DATABASE_URL)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cli-embedded-'));
  const dataDir = join(dir, 'pglite');
  beforeAll(() => {
    // The CLI reads its configuration from the environment, as it does in production.
    delete process.env.DATABASE_URL;
    process.env.PGLITE_DATA_DIR = dataDir;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('refuses bad flags before it starts the database', async () => {
    const result = await runCli(['user:add', '--org', 'x', '--email', 'nope', '--role', 'admin']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/email must be an email/);
    expect(existsSync(dataDir)).toBe(false);
  });

  it('db:migrate creates the database and applies every migration once', async () => {
    await expectMigrateFromEmpty();
    expect(existsSync(dataDir)).toBe(true);
  }, 120_000);
});
