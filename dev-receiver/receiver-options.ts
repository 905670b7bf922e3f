/** dev:receiver's command line and environment, read into plain options (the spec reads it too). */
import { parseArgs } from 'node:util';
import type { Answer } from './receiver';

export const DEFAULT_PORT = 4100;

export const USAGE = `Usage:
  RECEIVER_SECRET=whsec_... npm run dev:receiver [-- --port N] [--status CODE | --hang]
      receives the service's outgoing webhooks on http://127.0.0.1:PORT/ (any path) and prints
      each delivery: its type, webhook-id, when it happened, a summary of its data and whether
      its signature verifies with RECEIVER_SECRET (the secret the endpoint was created with;
      comma-separated, two while one is being rotated). From the environment, not a flag: npm
      prints a script's arguments, so a secret given as one lands on the screen and in logs.
  --secret whsec_... one more secret (repeatable); printed by npm, prefer RECEIVER_SECRET
  --status CODE  answer every delivery with CODE (default 204), e.g. 500 to watch retries
  --hang         never answer, to watch the service time out
Default port ${DEFAULT_PORT}.`;

export interface ReceiverOptions {
  port: number;
  secrets: string[];
  answer: Answer;
  help: boolean;
}

function answerFrom(status: string | undefined, hang: boolean | undefined): Answer {
  if (hang) return 'hang';
  if (status === undefined) return 204;
  const code = Number(status);
  if (!Number.isInteger(code) || code < 200 || code > 599) throw new Error(`--status: ${status}`);
  return code;
}

export function readReceiverOptions(
  argv: string[],
  env: Record<string, string | undefined>,
): ReceiverOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      port: { type: 'string' },
      secret: { type: 'string', multiple: true },
      status: { type: 'string' },
      hang: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  const port = values.port !== undefined ? Number(values.port) : DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`--port: ${values.port}`);
  }
  const fromEnv = (env.RECEIVER_SECRET ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  return {
    port,
    secrets: [...fromEnv, ...(values.secret ?? [])],
    answer: answerFrom(values.status, values.hang),
    help: values.help ?? false,
  };
}
