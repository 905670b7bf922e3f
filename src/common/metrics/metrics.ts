import { collectDefaultMetrics, Counter, Gauge, Histogram, register } from 'prom-client';

/**
 * The service's metrics (docs/operations.md), on prom-client's default registry: one registry
 * per process, so a counter another part of the code registers there is scraped too. Made once per
 * process (prom-client refuses a second metric of the same name), whatever number of apps a test
 * process boots.
 */
export const METRICS_CONTENT_TYPE = register.contentType;

let processMetrics = false;

/**
 * Node's own (CPU, resident memory, heap, event-loop lag, handles, GC), once per process and only
 * where metrics are served: the event-loop monitor runs all the time, so the CLI and a service with
 * METRICS_ENABLED=false do without it.
 */
export function collectProcessMetrics(): void {
  if (processMetrics) return;
  collectDefaultMetrics();
  processMetrics = true;
}

/** Seconds; from a fast health probe to a checkout waiting on the processor. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/** `route` is the pattern (`/api/v1/devices/:device_id`), never a raw path with its ids. */
export const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests answered, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
});

export const httpRequestDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'Time to answer an HTTP request, by method, route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: LATENCY_BUCKETS,
});

/** `outcome`: what the webhook did with it (applied, ignored, duplicate, refused...). */
export const webhookEvents = new Counter({
  name: 'webhook_events_total',
  help: 'Processor webhook deliveries, by event type and outcome',
  labelNames: ['type', 'outcome'] as const,
});

export const processorCallDuration = new Histogram({
  name: 'payment_processor_request_duration_seconds',
  help: 'Calls to the payment processor, by operation and outcome (ok or failed)',
  labelNames: ['operation', 'outcome'] as const,
  buckets: LATENCY_BUCKETS,
});

export const processorCallFailures = new Counter({
  name: 'payment_processor_failures_total',
  help: 'Failed calls to the payment processor, by operation',
  labelNames: ['operation'] as const,
});

/** Set at boot: non-zero when a newer release has migrated the database (rolling deploys). */
export const unknownMigrations = new Gauge({
  name: 'database_unknown_migrations',
  help: 'Migrations in the database that this release does not ship, as found at boot',
});

/** Times a processor call and counts it: the caller's promise, unchanged. */
export async function timedProcessorCall<T>(operation: string, call: () => Promise<T>): Promise<T> {
  const end = processorCallDuration.startTimer({ operation });
  try {
    const result = await call();
    end({ outcome: 'ok' });
    return result;
  } catch (err) {
    end({ outcome: 'failed' });
    processorCallFailures.inc({ operation });
    throw err;
  }
}
