/**
 * The load generator, run by bench/run.ts in its own process (pinned to its own core when taskset
 * exists): one autocannon run against one endpoint, the summary printed as JSON on stdout.
 */
import autocannon from 'autocannon';
import { requestsFor } from './load-requests';

export type Endpoint =
  | 'health'
  | 'me'
  | 'devices'
  | 'devicesDeep'
  | 'deviceToken'
  | 'heartbeat'
  | 'webhook'
  | 'checkout'
  | 'subscriptionDetail';

export interface LoadInput {
  url: string;
  endpoint: Endpoint;
  seconds: number;
  connections: number;
  sessionToken: string;
  cookieName: string;
  /** Devices in the measured org (device tokens pick one at random). */
  orgDevices: number;
  /** A next_cursor 90 % down the measured org's device list. */
  deepCursor: string;
  /** Bearer tokens of measured-org devices (heartbeats pick one at random). */
  deviceTokens: string[];
  /** A fixed number of requests instead of `seconds` (bench/plans.ts sends a few per route). */
  amount?: number;
  /** First pending subscription the webhook events pay; each request takes the next one. */
  subscriptionStart: number;
}

export interface LoadOutput {
  requests: number;
  seconds: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  /** How many pending subscriptions the webhook run used up. */
  subscriptionsUsed: number;
}

export async function runLoad(input: LoadInput): Promise<LoadOutput> {
  let n = input.subscriptionStart;
  const result = await autocannon({
    url: input.url,
    connections: input.connections,
    ...(input.amount ? { amount: input.amount } : { duration: input.seconds }),
    requests: requestsFor(input, () => n++),
  });
  const requests = result.requests.total;
  return {
    requests,
    seconds: result.duration,
    rps: requests / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    subscriptionsUsed: n - input.subscriptionStart,
  };
}

/**
 * One run per argument, or with `--worker` one run per JSON line on stdin, each answered by one
 * JSON line on stdout: the bench keeps one worker for the whole run, so no window waits for a
 * load generator to start.
 */
async function main(): Promise<void> {
  if (process.argv[2] !== '--worker') {
    const out = await runLoad(JSON.parse(process.argv[2]) as LoadInput);
    process.stdout.write(`${JSON.stringify(out)}\n`);
    return;
  }
  let buffered = '';
  let queue = Promise.resolve();
  process.stdin.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    let nl: number;
    while ((nl = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, nl);
      buffered = buffered.slice(nl + 1);
      queue = queue.then(async () => {
        const out = await runLoad(JSON.parse(line) as LoadInput);
        process.stdout.write(`${JSON.stringify(out)}\n`);
      });
    }
  });
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
