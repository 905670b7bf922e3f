import { join } from 'node:path';
import type { Endpoint, LoadInput, LoadOutput } from './load';
import { runChild } from './procs';
import type { Seeded } from './seed';

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
  };
}

/** One window in a load process of its own (on the load core). */
export async function loadInChild(input: LoadInput): Promise<LoadOutput> {
  const script = join(__dirname, 'load.ts');
  const args = ['-r', 'ts-node/register/transpile-only', script, JSON.stringify(input)];
  return JSON.parse(await runChild(args)) as LoadOutput;
}
