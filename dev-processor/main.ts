import { parseArgs } from 'node:util';
import type { DevPrice } from './hosted-page';
import { SERVICE_WEBHOOK_PATH } from './processor-events';
import { startDevProcessor } from './processor-server';

const DEFAULT_PORT = 12111;
const DEFAULT_SERVICE = 'http://127.0.0.1:3000';
/** Fixed, so a .env written once keeps working; nothing real is ever signed with them. */
const DEV_SECRET_KEY = 'sk_test_dev_processor';
const DEV_WEBHOOK_SECRET = 'whsec_dev_processor_0123456789abcdef';
const LEASE_PRICE = 'price_dev_lease';
const MONTHLY_PRICE = 'price_dev_monthly';
const COUPONS = ['welcome'];

const USAGE = `Usage:
  npm run dev:processor [-- --port N] [--service URL] [--webhook-secret whsec_...]
      a stand-in for the payment processor on http://127.0.0.1:PORT (default ${DEFAULT_PORT}): its
      checkout-session API, and a hosted checkout page whose Pay sends the service a signed
      checkout.session.completed (Cancel: checkout.session.expired) at
      SERVICE${SERVICE_WEBHOOK_PATH} (default service ${DEFAULT_SERVICE}).
  It prints the settings that point the service at it. Coupons it knows: ${COUPONS.join(', ')}.
  npm run -s dev:processor -- env [--port N] [--service URL] [--webhook-secret whsec_...]
      prints only those settings, one NAME=value a line (for .env), and exits.`;

function settingsFor(apiBase: string, serviceUrl: string, webhookSecret: string) {
  return {
    STRIPE_API_BASE: apiBase,
    STRIPE_SECRET_KEY: DEV_SECRET_KEY,
    STRIPE_LEASE_PRICE_ID: LEASE_PRICE,
    STRIPE_MONTHLY_PRICE_ID: MONTHLY_PRICE,
    STRIPE_WEBHOOK_SECRET: webhookSecret,
    SITE_URL: serviceUrl,
  };
}

function prices(leaseCents: number, monthlyCents: number): Record<string, DevPrice> {
  return {
    [LEASE_PRICE]: { name: 'Device lease (paid once)', unitAmount: leaseCents, interval: null },
    [MONTHLY_PRICE]: { name: 'Care subscription', unitAmount: monthlyCents, interval: 'month' },
  };
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      port: { type: 'string' },
      service: { type: 'string' },
      'webhook-secret': { type: 'string' },
      help: { type: 'boolean' },
    },
  });
  if (values.help) return console.log(USAGE);
  const port = values.port !== undefined ? Number(values.port) : DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`--port: ${values.port}`);
  const serviceUrl = new URL(values.service ?? DEFAULT_SERVICE).origin;
  const webhookSecret = values['webhook-secret'] ?? DEV_WEBHOOK_SECRET;
  if (positionals[0] === 'env') {
    const apiBase = `http://127.0.0.1:${port}`;
    for (const [name, value] of Object.entries(settingsFor(apiBase, serviceUrl, webhookSecret)))
      console.log(`${name}=${value}`);
    return;
  }
  if (positionals.length > 0) throw new Error(`unknown command ${positionals[0]}\n${USAGE}`);
  const processor = await startDevProcessor({
    port,
    serviceUrl,
    secretKey: DEV_SECRET_KEY,
    webhookSecret,
    prices: prices(24900, 5000),
    coupons: COUPONS,
  });
  const settings = settingsFor(processor.url, serviceUrl, webhookSecret);
  console.log(
    `Development payment processor: ${processor.url} (events to ${serviceUrl}${SERVICE_WEBHOOK_PATH})`,
  );
  console.log('Start the service with these settings (in .env or the environment):');
  for (const [name, value] of Object.entries(settings)) console.log(`  ${name}=${value}`);
  console.log(`Then open ${serviceUrl}/plans. Coupons it knows: ${COUPONS.join(', ')}.`);
  const stop = () => void processor.close().then(() => process.exit(0));
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
