import { parseArgs } from 'node:util';
import { Answer, startReceiver } from './receiver';

const DEFAULT_PORT = 4100;
const USAGE = `Usage:
  npm run dev:receiver [-- --port N] [--secret whsec_... ...] [--status CODE | --hang]
      receives the service's outgoing webhooks on http://127.0.0.1:PORT/ (any path) and prints
      each delivery: its type, webhook-id, when it happened, a summary of its data and whether
      its signature verifies with --secret (the secret the endpoint was created with; give two
      while one is being rotated).
  --status CODE  answer every delivery with CODE (default 204), e.g. 500 to watch retries
  --hang         never answer, to watch the service time out
Default port ${DEFAULT_PORT}.`;

function answerFrom(status: string | undefined, hang: boolean | undefined): Answer {
  if (hang) return 'hang';
  if (status === undefined) return 204;
  const code = Number(status);
  if (!Number.isInteger(code) || code < 200 || code > 599) throw new Error(`--status: ${status}`);
  return code;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      secret: { type: 'string', multiple: true },
      status: { type: 'string' },
      hang: { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return console.log(USAGE);
  const port = values.port !== undefined ? Number(values.port) : DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port: ${values.port}`);
  const secrets = values.secret ?? [];
  const answer = answerFrom(values.status, values.hang);
  const receiver = await startReceiver({ port, secrets, answer });
  const answers = answer === 'hang' ? 'never answering' : `answering ${answer}`;
  console.log(`Development webhook receiver: ${receiver.url}/ (${answers})`);
  if (secrets.length === 0) {
    console.log('  no --secret given: signatures are not checked.');
  }
  const stop = () => void receiver.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
