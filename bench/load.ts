/**
 * The load generator, one long-lived process on the load core (LoadWorker): per JSON line in, one
 * autocannon window against one endpoint, its summary as a JSON line out.
 */
import autocannon from 'autocannon';
import { requestsFor } from './load-requests';
import { serveLines } from './procs';

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

async function runLoad(input: LoadInput): Promise<LoadOutput> {
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

serveLines(runLoad);
