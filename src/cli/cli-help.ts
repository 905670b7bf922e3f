import { CliCommand } from '../common/cli/cli-command';

const table = (rows: [string, string][]): string[] => {
  const width = Math.max(...rows.map(([left]) => left.length));
  return rows.map(([left, right]) => `  ${left.padEnd(width)}  ${right}`);
};

/** `--help` of the tool: every command with its one-line summary. */
export function toolHelp(commands: Record<string, CliCommand>): string {
  return [
    'usage: node dist/cli.js <command> [flags]    (from a checkout: npm run cli -- <command>)',
    '',
    'Works on the same database and settings as the server (the environment and .env).',
    'Prints one JSON object on stdout and exits 0, or the reason on stderr and exits 1.',
    '',
    'commands:',
    ...table(Object.entries(commands).map(([name, c]) => [name, c.summary])),
    '',
    '<command> --help shows its flags.',
  ].join('\n');
}

/** `<command> --help`: its usage, what it does, and each flag. */
export function commandHelp(name: string, command: CliCommand): string {
  const flags = Object.entries(command.options).map(([flag, o]): [string, string] => [
    `--${flag}`,
    `${o.help}${o.required ? ' (required)' : ''}`,
  ]);
  return [
    `usage: ${command.usage}`,
    '',
    command.summary,
    ...(command.description ? ['', command.description] : []),
    ...(flags.length > 0 ? ['', 'flags:', ...table(flags)] : []),
    '',
    `${name} --help shows this.`,
  ].join('\n');
}
