/** Readiness and liveness (the health controller's routes): the balancer's probes. */
const HEALTH_PATH = '/health';
const HEALTH_LIVE_PATH = '/health/live';
export const HEALTH_PATHS: ReadonlySet<string> = new Set([HEALTH_PATH, HEALTH_LIVE_PATH]);

/**
 * The probes and the metrics scrape: every few seconds from each balancer and Prometheus, saying
 * nothing new, so they are neither access-logged nor counted in the request metrics.
 */
export const MONITORING_PATHS: ReadonlySet<string> = new Set([...HEALTH_PATHS, '/metrics']);
