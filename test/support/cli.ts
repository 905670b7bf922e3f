import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Logger } from '@nestjs/common';
import { CliResult, runCli as runCommand } from '../../src/cli/cli-runner';
import type { LogLine } from './captured-logs';

/** A command's result, with the log lines it wrote on stderr (its audit lines and errors). */
export type LoggedCliResult = CliResult & { logs: LogLine[] };

/**
 * Runs `run` with the JSON log lines written on stderr meanwhile captured instead of printed: a
 * command writes its audit lines there (docs/cli.md), which a test reads from `logs`. Anything
 * else on stderr still reaches it.
 */
export async function capturingCliLogs<T>(run: () => Promise<T>): Promise<[T, LogLine[]]> {
  const logs: LogLine[] = [];
  const write = process.stderr.write.bind(process.stderr) as (chunk: unknown) => boolean;
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk: unknown) => {
    const text = String(chunk);
    if (!text.startsWith('{"level":')) return write(chunk);
    for (const line of text.trimEnd().split('\n')) logs.push(JSON.parse(line) as LogLine);
    return true;
  });
  try {
    return [await run(), logs];
  } finally {
    spy.mockRestore();
  }
}

/**
 * Runs a command as the CLI does, its log lines captured. The CLI makes its logger Nest's logger
 * for the process, as a one-command process should; here the test's app shares the process and
 * logs nothing (`logger: false`), so Nest's logger is turned off again after the command.
 */
export async function runCli(argv: string[]): Promise<LoggedCliResult> {
  try {
    const [result, logs] = await capturingCliLogs(() => runCommand(argv));
    return { ...result, logs };
  } finally {
    Logger.overrideLogger(false);
  }
}

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
