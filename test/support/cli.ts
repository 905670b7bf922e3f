import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCli } from '../../src/cli/cli-runner';

/** Runs a command that must succeed; its JSON. */
export async function cliJson<T = Record<string, unknown>>(argv: string[]): Promise<T> {
  const result = await runCli(argv);
  expect(result).toMatchObject({ code: 0 });
  return JSON.parse(result.stdout ?? '') as T;
}

/** How many migrations the service ships. */
export const MIGRATION_COUNT = readdirSync(join(__dirname, '../../src/database/migrations')).filter(
  (f) => /^\d+-\w+\.ts$/.test(f),
).length;

/** db:migrate applies every migration on an empty database, then none; commands work after. */
export async function expectMigrateFromEmpty(): Promise<void> {
  const first = await cliJson<{ applied: string[] }>(['db:migrate']);
  expect(first.applied).toHaveLength(MIGRATION_COUNT);
  expect(first.applied[0]).toMatch(/^InitialSchema\d+$/);
  expect(await cliJson(['db:migrate'])).toEqual({ applied: [], unknown: [] });
  const org = await cliJson<{ id: string }>(['org:create', '--name', 'After Migrate']);
  expect(await cliJson(['org:list'])).toEqual({
    items: [expect.objectContaining({ id: org.id, name: 'After Migrate' })],
    next_cursor: null,
  });
}
