import type { Endpoint, LoadInput, LoadOutput } from './load';
import type { LoadWorker } from './procs';
import type { Seeded } from './seed';

/** Every route the bench measures, in its order; the deep page only on the service. */
export const BENCH_ENDPOINTS: readonly Endpoint[] = [
  'health',
  'me',
  'devices',
  'devicesDeep',
  'deviceToken',
  'heartbeat',
  'webhook',
  'checkout',
  'subscriptionDetail',
];

/** One load window's input for `bench/load.ts`, against the seeded tables. */
export function loadInput(
  url: string,
  endpoint: Endpoint,
  seeded: Seeded,
  o: { seconds: number; connections: number; subscriptionStart: number; amount?: number },
): LoadInput {
  return {
    url,
    endpoint,
    ...o,
    sessionToken: seeded.sessionToken,
    cookieName: 'service_session',
    orgDevices: seeded.size.orgDevices,
    deepCursor: seeded.deepCursor,
    deviceTokens: seeded.deviceTokens,
  };
}

/**
 * One window on the long-lived load worker against the seeded tables; the subscriptions its
 * webhook or checkout requests used are counted into `next`, so the next window takes fresh ones.
 */
export async function runWindow(
  worker: LoadWorker,
  url: string,
  endpoint: Endpoint,
  seeded: Seeded,
  next: { subscription: number },
  o: { seconds: number; connections: number; amount?: number },
): Promise<LoadOutput> {
  const input = loadInput(url, endpoint, seeded, { ...o, subscriptionStart: next.subscription });
  const out = await worker.run<LoadInput, LoadOutput>(input);
  next.subscription += out.subscriptionsUsed;
  return out;
}
