import type { INestApplicationContext } from '@nestjs/common';

export type CliOptions = Record<string, { type: 'string' | 'boolean'; required?: boolean }>;

export interface CliArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** One `npm run cli -- <name>` command: its flags, and what it does with the app's services. */
export interface CliCommand {
  usage: string;
  options: CliOptions;
  positionals?: string[];
  run(app: INestApplicationContext, args: CliArgs): Promise<unknown>;
}

/** Reads a flag that the command's option list marks as a string. */
export function str(args: CliArgs, name: string): string {
  const value = args.values[name];
  return typeof value === 'string' ? value : '';
}
