import { readEnv } from '../src/config/load-env';
import { readReceiverOptions, USAGE } from './receiver-options';
import { startReceiver } from './receiver';

async function main(): Promise<void> {
  // RECEIVER_SECRET from the environment (or .env, read as the service reads it).
  const o = readReceiverOptions(process.argv.slice(2), readEnv());
  if (o.help) return console.log(USAGE);
  const receiver = await startReceiver({ port: o.port, secrets: o.secrets, answer: o.answer });
  const answers = o.answer === 'hang' ? 'never answering' : `answering ${o.answer}`;
  console.log(`Development webhook receiver: ${receiver.url}/ (${answers})`);
  if (o.secrets.length === 0) {
    console.log('  no RECEIVER_SECRET given: signatures are not checked.');
  }
  const stop = () => void receiver.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
