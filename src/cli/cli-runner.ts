import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { DomainError } from '../common/errors/domain.error';
import { conflictFor } from '../database/database-errors';
import { CliArgs, CliCommand } from './cli-command';
import { COMMANDS } from './cli-commands';
import { CliModule } from './cli.module';

export interface CliResult {
  code: 0 | 1;
  stdout?: string;
  stderr?: string;
}

function usage(): string {
  const lines = Object.values(COMMANDS).map((c) => `  ${c.usage}`);
  return `usage: npm run cli -- <command>\n\ncommands:\n${lines.join('\n')}`;
}

function parse(command: CliCommand, argv: string[]): CliArgs {
  const parsed = parseArgs({
    args: argv,
    options: command.options,
    allowPositionals: (command.positionals ?? []).length > 0,
    strict: true,
  });
  const missing = Object.entries(command.options)
    .filter(([name, o]) => o.required && parsed.values[name] === undefined)
    .map(([name]) => `--${name}`);
  const positionals = command.positionals ?? [];
  if (parsed.positionals.length !== positionals.length) missing.push(...positionals);
  if (missing.length > 0) throw new Error(`missing ${missing.join(', ')}\nusage: ${command.usage}`);
  return { values: parsed.values, positionals: parsed.positionals };
}

function reason(thrown: unknown): string {
  const err = conflictFor(thrown) ?? thrown;
  if (err instanceof DomainError) {
    const fields = (err.errors ?? []).map((e) => `\n  ${e.field}: ${e.message}`).join('');
    return `${err.detail}${fields}`;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Runs one command: one JSON object on stdout and 0, or the reason on stderr and 1. */
export async function runCli(argv: string[]): Promise<CliResult> {
  const [name, ...rest] = argv;
  const command = name ? COMMANDS[name] : undefined;
  if (!command) return { code: 1, stderr: name ? `unknown command: ${name}\n${usage()}` : usage() };
  let args: CliArgs;
  try {
    args = parse(command, rest);
  } catch (err) {
    return { code: 1, stderr: reason(err) };
  }
  const app = await NestFactory.createApplicationContext(CliModule, {
    logger: false,
    abortOnError: false,
  }).catch((err: unknown) => err as Error);
  if (app instanceof Error) return { code: 1, stderr: reason(app) };
  try {
    const result = await command.run(app, args);
    return { code: 0, stdout: JSON.stringify(result) };
  } catch (err) {
    return { code: 1, stderr: reason(err) };
  } finally {
    await app.close();
  }
}
