import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** A development tool (dev-idp/, dev-processor/, dev-receiver/) as `npm run dev:…` runs it. */
export interface DevTool {
  child: ChildProcess;
  output: () => { stdout: string; stderr: string };
  /** Resolves with the first match in stdout; rejects when the tool exits or the wait is over. */
  waitFor(pattern: RegExp, withinMs?: number): Promise<RegExpExecArray>;
  stop(): Promise<void>;
}

export function runDevTool(
  folder: 'dev-idp' | 'dev-processor' | 'dev-receiver',
  args: string[],
  env: Record<string, string> = {},
): DevTool {
  const child = spawn(
    process.execPath,
    ['-r', 'ts-node/register/transpile-only', join(folder, 'main.ts'), ...args],
    { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const output = () => ({ stdout, stderr });
  const waitFor = async (pattern: RegExp, withinMs = 60_000) => {
    const started = Date.now();
    let match: RegExpExecArray | null;
    while (!(match = pattern.exec(stdout))) {
      if (child.exitCode !== null || Date.now() - started > withinMs) {
        throw new Error(`${folder}: no ${pattern} in ${JSON.stringify(output())}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return match;
  };
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return { child, output, waitFor, stop };
}
