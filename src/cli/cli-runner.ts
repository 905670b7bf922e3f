import { parseArgs } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { DomainError } from '../common/errors/domain.error';
import { conflictFor } from '../common/errors/database-errors';
import { CliArgs, CliCommand, CliRefusal, CliRun } from '../common/cli/cli-command';
import { COMMANDS } from './cli-commands';
import { commandHelp, toolHelp } from './cli-help';
import { CliModule } from './cli.module';
import { CliLogger } from './cli-logger';

export interface CliResult {
  code: 0 | 1;
  stdout?: string;
  stderr?: string;
}

const HELP = new Set(['--help', '-h', 'help']);

/** A usage mistake: the reason and the command's usage line, before anything is booted. */
class UsageError extends Error {}

function parse(command: CliCommand, argv: string[]): CliArgs {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: command.options,
      allowPositionals: (command.positionals ?? []).length > 0,
      strict: true,
    });
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
  const missing = Object.entries(command.options)
    .filter(([name, o]) => o.required && parsed.values[name] === undefined)
    .map(([name]) => `--${name}`);
  const positionals = command.positionals ?? [];
  if (parsed.positionals.length !== positionals.length) missing.push(...positionals);
  if (missing.length > 0) throw new UsageError(`missing ${missing.join(', ')}`);
  return { values: parsed.values, positionals: parsed.positionals };
}

/** The message of a failure: a domain error's detail and field errors, as the API would give them. */
function reason(thrown: unknown): string {
  const err = conflictFor(thrown) ?? thrown;
  if (err instanceof DomainError) {
    const fields = (err.errors ?? []).map((e) => `\n  ${e.field}: ${e.message}`).join('');
    return `${err.detail}${fields}`;
  }
  return err instanceof Error ? err.message : String(err);
}

const failure = (thrown: unknown): CliResult => ({ code: 1, stderr: reason(thrown) });

/** Validates the arguments with the command's DTO: a refusal costs no database start. */
async function prepare(command: CliCommand, argv: string[]): Promise<CliRun | CliResult> {
  try {
    return await command.prepare(parse(command, argv));
  } catch (err) {
    if (err instanceof UsageError) {
      return { code: 1, stderr: `${err.message}\nusage: ${command.usage}` };
    }
    return failure(err);
  }
}

/** Boots the command's own small module, runs it, and always closes the database again. */
async function execute(command: CliCommand, run: CliRun): Promise<CliResult> {
  const app = await NestFactory.createApplicationContext(CliModule.for(command.module), {
    logger: new CliLogger(),
    abortOnError: false,
  }).catch((err: unknown) => err as Error);
  if (app instanceof Error) return failure(app);
  try {
    const out = await run(app);
    if (out instanceof CliRefusal) {
      return { code: 1, stdout: JSON.stringify(out.output), stderr: out.reason };
    }
    return { code: 0, stdout: JSON.stringify(out) };
  } catch (err) {
    return failure(err);
  } finally {
    await app.close();
  }
}

/**
 * Runs one command: one JSON object on stdout and 0, or the reason on stderr and 1 (docs/cli.md:
 * the same exit status for every refusal; the message is the domain error's detail).
 * `--help` (for the tool or a command) prints on stdout and exits 0.
 */
export async function runCli(argv: string[]): Promise<CliResult> {
  const [name, ...rest] = argv;
  if (name === undefined) return { code: 1, stderr: toolHelp(COMMANDS) };
  if (HELP.has(name)) return { code: 0, stdout: toolHelp(COMMANDS) };
  const command = COMMANDS[name] as CliCommand | undefined;
  if (!command) return { code: 1, stderr: `unknown command: ${name}\n\n${toolHelp(COMMANDS)}` };
  if (rest.some((a) => a === '--help' || a === '-h')) {
    return { code: 0, stdout: commandHelp(name, command) };
  }
  const run = await prepare(command, rest);
  return typeof run === 'function' ? execute(command, run) : run;
}
