// First, for its effect, as in main.ts: the embedded database starts in a worker while the modules
// below load (about half of a command's time otherwise), unless only help was asked.
import './cli/cli-early';
import { CliResult, runCli } from './cli/cli-runner';
import { stopEarly } from './database/embedded/embedded-postgres.server';

function print({ code, stdout, stderr }: CliResult): void {
  if (stdout) process.stdout.write(`${stdout}\n`);
  if (stderr) process.stderr.write(`${stderr}\n`);
  process.exitCode = code;
}

runCli(process.argv.slice(2))
  .then(print, (err: unknown) =>
    print({ code: 1, stderr: err instanceof Error ? err.message : String(err) }),
  )
  // A command refused before it used the database leaves the early start to stop.
  .finally(() => stopEarly());
