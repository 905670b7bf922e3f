import { Counter, Gauge } from 'prom-client';
import type { DataSource } from 'typeorm';
import type { Clock } from '../common/clock/clock';

/** The database the gauges read at scrape time (the running app's), and its Clock for ages. */
let source: DataSource | undefined;
let clock: Clock | undefined;

export function measureDeliveriesOf(dataSource: DataSource, appClock: Clock): void {
  source = dataSource;
  clock = appClock;
}

/** `outcome`: delivered, retrying (an attempt failed, another is due), failed (for good). */
export const outgoingDeliveries = new Counter({
  name: 'outgoing_webhook_deliveries_total',
  help: 'Outgoing webhook delivery attempts, by outcome',
  labelNames: ['outcome'] as const,
});

const PENDING_SQL = `SELECT count(*) AS n, min(created_at) AS oldest FROM webhook_deliveries
  WHERE status = 'pending'`;

interface Pending {
  n: number;
  oldest: Date | null;
}

async function readPending(): Promise<Pending> {
  if (!source?.isInitialized) return { n: 0, oldest: null };
  const [row] = await source.query<{ n: string; oldest: Date | null }[]>(PENDING_SQL);
  return { n: Number(row.n), oldest: row.oldest ? new Date(row.oldest) : null };
}

/** One query per scrape for both gauges: prom-client collects them at once, so they share it. */
let reading: Promise<Pending> | undefined;
function pendingNow(): Promise<Pending> {
  reading ??= readPending().finally(() => (reading = undefined));
  return reading;
}

new Gauge({
  name: 'outgoing_webhook_deliveries_pending',
  help: 'Outgoing webhook deliveries not yet delivered nor failed',
  async collect() {
    this.set((await pendingNow()).n);
  },
});

new Gauge({
  name: 'outgoing_webhook_oldest_pending_seconds',
  help: 'Age of the oldest pending outgoing webhook delivery (0 when none)',
  async collect() {
    const { oldest } = await pendingNow();
    const now = clock ? clock.now().getTime() : undefined;
    this.set(oldest && now ? Math.max(0, (now - oldest.getTime()) / 1000) : 0);
  },
});
