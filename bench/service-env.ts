import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEBHOOK_SECRET } from '../test/support/processor-events';

export const POOL_SIZE = 10;
/**
 * The master key the bench's services run with (DATA_ENCRYPTION_KEY); the seeding wraps its
 * data keys with it, as the service wraps the ones it makes.
 */
export const BENCH_MASTER_KEY = Buffer.alloc(32, 7);

/**
 * The measured org's id, fixed so the service can be told before the seeding (bench/seed.ts)
 * that it is the fulfilment organization (FULFILMENT_ORG_ID): its admin reads subscriptions.
 */
export const BENCH_ORG_ID = '0b0b0b0b-0000-4000-8000-000000000001';

/** The services' DEVICE_TOKEN_SECRET: the seeding mints the heartbeats' bearer tokens with it. */
export const BENCH_DEVICE_TOKEN_SECRET = 'bench-device-token-secret-0123456789abcdef';

/** Raised for the bench only, so the load measures the work and not the 429 answers. */
export const BENCH_RATE_LIMIT = '100000000';

/**
 * `start:prod` as `[NAME=value ...] node [flags] dist/main.js`, in its parts: the variables (glibc's
 * MALLOC_* thresholds) and the node flags (V8's heap settings), so the bench starts the service and
 * its references as production does (the Dockerfile carries the same). This checkout's, or the one
 * at `root` (bench:ab starts each build as its own package.json says).
 */
export function productionCommand(root = join(__dirname, '..')): {
  env: Record<string, string>;
  args: string[];
} {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const match = /^((?:[A-Z_]+=\S*\s+)*)node\s+(.*?)\s*dist\/main\.js$/.exec(
    pkg.scripts['start:prod'].trim(),
  );
  if (!match) throw new Error('start:prod is not `[NAME=value ...] node [flags] dist/main.js`');
  const words = (text: string) => text.split(/\s+/).filter((a) => a.length > 0);
  const env = Object.fromEntries(words(match[1]).map((w) => w.split('=', 2) as [string, string]));
  return { env, args: words(match[2]) };
}

/**
 * The service's environment in the bench: production mode, the local fake processor, raised limits;
 * `start:prod`'s variables from this checkout's package.json, or from `root`'s.
 */
export function serviceEnv(
  port: number,
  databaseUrl: string | undefined,
  fakeUrl: string,
  dataDir?: string,
  root?: string,
) {
  return {
    PATH: process.env.PATH,
    ...productionCommand(root).env,
    NODE_ENV: 'production',
    PORT: String(port),
    HOST: '127.0.0.1',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : { PGLITE_DATA_DIR: dataDir }),
    DATABASE_POOL_SIZE: String(POOL_SIZE),
    DEVICE_TOKEN_SECRET: BENCH_DEVICE_TOKEN_SECRET,
    // Production refuses to boot without it (outgoing webhook secrets are encrypted at rest).
    DATA_ENCRYPTION_KEY: BENCH_MASTER_KEY.toString('base64'),
    // The seeded org (bench/seed.ts) is the fulfilment org: its admin reads subscriptions.
    FULFILMENT_ORG_ID: BENCH_ORG_ID,
    STRIPE_SECRET_KEY: 'sk_test_bench',
    STRIPE_LEASE_PRICE_ID: 'price_lease',
    STRIPE_MONTHLY_PRICE_ID: 'price_monthly',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_BASE: fakeUrl,
    RATE_LIMIT_CHECKOUT_PER_MINUTE: BENCH_RATE_LIMIT,
    RATE_LIMIT_DEVICE_AUTH_PER_MINUTE: BENCH_RATE_LIMIT,
    RATE_LIMIT_LOGIN_PER_MINUTE: BENCH_RATE_LIMIT,
  };
}

/** The service as `npm run start:prod` runs it: the same node flags, then dist/main.js. */
export function serviceArgs(): string[] {
  return [...productionCommand().args, join(__dirname, '..', 'dist/main.js')];
}
