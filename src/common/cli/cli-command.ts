import type { INestApplicationContext, Type } from '@nestjs/common';
import { validateInput } from '../validation/validate-input';

export interface CliOption {
  type: 'string' | 'boolean';
  required?: boolean;
  /** One line for `--help`. */
  help: string;
}

export type CliOptions = Record<string, CliOption>;

/** The page flags of every list command, checked by the API's own page query DTOs. */
export const PAGE_FLAGS: CliOptions = {
  limit: { type: 'string', help: 'items per page, 1 to 200 (default 50)' },
  cursor: { type: 'string', help: 'the next_cursor of the previous page' },
};

export const ORG_FLAG: CliOption = {
  type: 'string',
  required: true,
  help: "the organization's id",
};

export interface CliArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/**
 * What a command returns when its JSON answer is still a failure (a batch with error rows): the
 * runner prints `output` on stdout as usual, `reason` on stderr, and exits 1.
 */
export class CliRefusal {
  constructor(
    readonly output: unknown,
    readonly reason: string,
  ) {}
}

/** Runs the command on its module's services; made by `prepare` once the arguments are valid. */
export type CliRun = (app: INestApplicationContext) => Promise<unknown>;

/** One `npm run cli -- <name>` command: its flags, the module it runs on, and what it does. */
export interface CliCommand {
  summary: string;
  usage: string;
  /** More for `<command> --help` than the summary: what to know before running it. */
  description?: string;
  options: CliOptions;
  positionals?: string[];
  /**
   * The feature's module without HTTP (no controllers, so no guards), booted with the
   * configuration, the database and the clock; never the whole application.
   */
  module: Type;
  /** Validates the arguments (before anything is booted), then returns what to run. */
  prepare(args: CliArgs): Promise<CliRun>;
}

/** Reads a flag that the command's option list marks as a string. */
export function str(args: CliArgs, name: string): string {
  const value = args.values[name];
  return typeof value === 'string' ? value : '';
}

/** `--device-id` carries the DTO field `device_id`. */
export const flagField = (flag: string): string => flag.replaceAll('-', '_');
export const fieldFlag = (field: string): string => `--${field.replaceAll('_', '-')}`;

/**
 * The given flags as the API's DTO: the same class-validator rules, through the same pipe, as a
 * request body or query, so a rule is written once. `extra` adds fields that come from elsewhere
 * than a flag (a key read from a file). An error names the DTO's field; the runner shows the flag.
 */
export function dtoFrom<T extends object>(
  dto: Type<T>,
  args: CliArgs,
  flags: string[],
  extra: Record<string, unknown> = {},
): Promise<T> {
  const plain: Record<string, unknown> = {};
  for (const flag of flags) {
    const value = args.values[flag];
    if (value !== undefined) plain[flagField(flag)] = value;
  }
  return validateInput(dto, { ...plain, ...extra });
}
