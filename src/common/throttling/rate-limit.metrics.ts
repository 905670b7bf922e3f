import { Counter, Gauge, register } from 'prom-client';

export const FALLBACK_TOTAL = 'rate_limit_store_fallback_total';
export const FALLBACK_ACTIVE = 'rate_limit_store_fallback_active';

export interface FallbackMetrics {
  /** Hits counted in this instance's memory because Redis could not answer. */
  hits: Counter;
  /** 1 while this instance counts in memory, 0 while it counts in Redis. */
  active: Gauge;
}

/**
 * On prom-client's default registry (GET /metrics serves it). Looked up before being made: the
 * registry is one per process, and tests boot several apps in one process.
 */
export function fallbackMetrics(): FallbackMetrics {
  const hits =
    (register.getSingleMetric(FALLBACK_TOTAL) as Counter | undefined) ??
    new Counter({
      name: FALLBACK_TOTAL,
      help: "Rate-limit hits counted in this instance's memory because Redis was unreachable",
    });
  const active =
    (register.getSingleMetric(FALLBACK_ACTIVE) as Gauge | undefined) ??
    new Gauge({
      name: FALLBACK_ACTIVE,
      help: '1 while rate limits are counted per instance because Redis is unreachable',
    });
  return { hits, active };
}
