/**
 * The load generator, run by bench/run.ts in its own process (pinned to its own core when taskset
 * exists): one autocannon run against one endpoint, the summary printed as JSON on stdout.
 */
import { createHmac } from 'node:crypto';
import autocannon from 'autocannon';
import { checkoutCompletedEvent, WEBHOOK_SECRET } from '../test/support/processor-events';
import { DEVICE_MODEL, DEVICE_PROVIDER, BENCH_DEVICES, deviceId, subscriptionId } from './seed';

export type Endpoint = 'health' | 'devices' | 'deviceToken' | 'webhook' | 'checkout';

export interface LoadInput {
  url: string;
  endpoint: Endpoint;
  seconds: number;
  connections: number;
  sessionToken: string;
  cookieName: string;
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

const JSON_HEADERS = { 'content-type': 'application/json' };

function requestsFor(input: LoadInput, next: () => number): autocannon.Request[] {
  switch (input.endpoint) {
    case 'health':
      return [{ method: 'GET', path: '/health' }];
    case 'devices':
      return [
        {
          method: 'GET',
          path: '/api/v1/devices?limit=50',
          headers: { cookie: `${input.cookieName}=${input.sessionToken}` },
        },
      ];
    case 'deviceToken':
      return [
        {
          method: 'POST',
          path: '/auth/device',
          headers: JSON_HEADERS,
          setupRequest: (req) => ({
            ...req,
            body: JSON.stringify({
              device_id: deviceId(Math.floor(Math.random() * BENCH_DEVICES)),
              model: DEVICE_MODEL,
              provider: DEVICE_PROVIDER,
            }),
          }),
        },
      ];
    case 'webhook':
      return [
        {
          method: 'POST',
          path: '/api/payment-processor/webhook',
          setupRequest: (req) => {
            const body = JSON.stringify(checkoutCompletedEvent(subscriptionId(next())));
            const t = Math.floor(Date.now() / 1000);
            const v1 = createHmac('sha256', WEBHOOK_SECRET).update(`${t}.${body}`).digest('hex');
            return {
              ...req,
              body,
              headers: { ...JSON_HEADERS, 'stripe-signature': `t=${t},v1=${v1}` },
            };
          },
        },
      ];
    case 'checkout':
      return [
        {
          method: 'POST',
          path: '/api/lease/checkout',
          headers: JSON_HEADERS,
          body: JSON.stringify({ name: 'Dana Carer', email: 'dana@example.com', source: 'bench' }),
        },
      ];
  }
}

async function main(): Promise<void> {
  const input = JSON.parse(process.argv[2]) as LoadInput;
  let n = input.subscriptionStart;
  const result = await autocannon({
    url: input.url,
    connections: input.connections,
    duration: input.seconds,
    requests: requestsFor(input, () => n++),
  });
  const requests = result.requests.total;
  const output: LoadOutput = {
    requests,
    seconds: result.duration,
    rps: requests / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    subscriptionsUsed: n - input.subscriptionStart,
  };
  process.stdout.write(`${JSON.stringify(output)}\n`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
