import type { ChildProcess } from 'node:child_process';
import type { PublicClient } from '../../dev-idp/code-flow';
import { runDevTool } from './dev-tools';

export interface DevIdpProcess {
  client: PublicClient;
  /** The operators' console's client id (CONSOLE_OIDC_CLIENT_ID or its default). */
  consoleClientId: string;
  /** What the process wrote on stderr (oidc-provider's notices). */
  stderr: () => string;
  stop(): Promise<void>;
}

const READY =
  /Development identity provider: (http:\/\/\S+) \(client_id (\S+)\)\n {2}the console's client: +(\S+)/;

/** `npm run dev:idp` as a child process, on a free port: oidc-provider runs as it does for people. */
export function runDevIdp(
  args: string[],
  env: Record<string, string> = {},
): { child: ChildProcess; output: () => { stdout: string; stderr: string } } {
  return runDevTool('dev-idp', args, env);
}

/** Started with the service's settings in `env` (BASE_URL: where the console is served). */
export async function startDevIdp(
  clientId: string,
  env: Record<string, string> = {},
): Promise<DevIdpProcess> {
  const { child, output } = runDevIdp(['--port', '0', '--client-id', clientId], env);
  const started = Date.now();
  let match: RegExpExecArray | null = null;
  while (!(match = READY.exec(output().stdout))) {
    if (child.exitCode !== null || Date.now() - started > 60_000) {
      child.kill();
      throw new Error(`dev:idp did not start: ${JSON.stringify(output())}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const issuer = match[1];
  return {
    client: { issuer, clientId: match[2], redirectUri: `${issuer}/callback` },
    consoleClientId: match[3],
    stderr: () => output().stderr,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
