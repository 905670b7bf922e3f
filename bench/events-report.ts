import { pct } from './events-receiver';

/** The outgoing-webhook rows of the bench report (bench/events.ts measures them). */
export interface EventsResult {
  uptime: string;
  /** Device registrations the API refused during 1 and 2 (status: count). */
  apiRefused: string;
  /** Device registrations through the API at a steady rate: each commits one event. */
  idle: { events: number; offeredPerS: number; perS: number; lagP50: number; lagP99: number };
  backlog: {
    queued: number;
    drainS: number;
    perS: number;
    cpuMsPerEvent: number;
    /** The queued events, from their commit. */
    lagP50: number;
    lagP99: number;
    /** Events committed through the API while the backlog drained (due after it). */
    apiEvents: number;
    apiLagP50: number;
    apiLagP99: number;
  };
  hanging: {
    deliveries: number;
    /** Attempts open on the hanging receiver during the window. */
    inFlight: number;
    withoutP99: number[];
    withP99: number[];
    withoutCpuMs: number[];
    withCpuMs: number[];
    /** Commit to first attempt (ms) of another endpoint's events while the deliveries hang. */
    besideLags: number[];
  };
}

const f = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : '-');
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

/** The section of results/<date>.md. */
export function eventsMarkdown(r: EventsResult): string[] {
  const { idle, backlog: b, hanging: h } = r;
  return [
    '## Outgoing webhooks (one instance, PostgreSQL, a local receiver that answers at once)',
    '',
    '| figure | value |',
    '| --- | ---: |',
    `| no backlog: ${idle.events} device registrations through the API at ${idle.offeredPerS}/s, delivered per second | ${f(idle.perS)} |`,
    `| no backlog: commit to first attempt p50 / p99 ms | ${f(idle.lagP50)} / ${f(idle.lagP99)} |`,
    `| device registrations the API refused meanwhile | ${r.apiRefused} |`,
    `| ${b.queued} queued at once: drained in s / events per second | ${f(b.drainS, 1)} / ${f(b.perS)} |`,
    `| ${b.queued} queued: service CPU ms per delivered event | ${f(b.cpuMsPerEvent, 3)} |`,
    `| ${b.queued} queued: commit to first attempt of the queued ones p50 / p99 ms | ${f(b.lagP50)} / ${f(b.lagP99)} |`,
    `| ${b.queued} queued: commit to first attempt of ${b.apiEvents} API events committed behind them p50 / p99 ms | ${f(b.apiLagP50)} / ${f(b.apiLagP99)} |`,
    `| GET /api/v1/devices p99 ms without / with ${h.deliveries} deliveries to a receiver that never answers (${h.inFlight} in flight at once), median of rounds | ${f(median(h.withoutP99), 1)} / ${f(median(h.withP99), 1)} |`,
    `| the same, CPU ms per request without / with | ${f(median(h.withoutCpuMs), 3)} / ${f(median(h.withCpuMs), 3)} |`,
    `| rounds (p99 without / with) | ${h.withoutP99.map((x, i) => `${x}/${h.withP99[i]}`).join(', ')} |`,
    `| another endpoint's events (${h.besideLags.length}, through the API) while they hang: commit to first attempt p50 / p99 ms | ${f(pct(h.besideLags, 50))} / ${f(pct(h.besideLags, 99))} |`,
    '',
    `Measured under: \`${r.uptime}\`.`,
    '',
  ];
}
