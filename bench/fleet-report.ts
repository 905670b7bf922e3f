/** The fleet's figures (bench/fleet.ts measures them): each side's windows, medians, the page. */
import type { FleetWindowOutput, KindResult } from './fleet-load';
import { f, median } from './stats';

/** Requests per device per second: a token every 15 minutes and a heartbeat every 5. */
export const REQUESTS_PER_DEVICE_PER_S = 1 / 900 + 1 / 300;

/** One measured window of one side. */
export interface FleetSample extends FleetWindowOutput {
  /** The side's instances' CPU ms per answered request. */
  cpuMsPerRequest: number;
}

/** One side over its windows: medians, the latencies' medians, every failure. */
export interface FleetSide {
  cpuMsPerRequest: number;
  answeredPerS: number;
  sentPerS: number;
  token: KindResult;
  heartbeat: KindResult;
  windows: FleetSample[];
}

export interface FleetResult {
  instances: number;
  devices: number;
  options: { rps: number; seconds: number; warmupSeconds: number; rounds: number };
  service: FleetSide;
  twin: FleetSide;
}

function kind(windows: KindResult[]): KindResult {
  const failedBy: Record<string, number> = {};
  for (const w of windows)
    for (const [status, n] of Object.entries(w.failedBy))
      failedBy[status] = (failedBy[status] ?? 0) + n;
  return {
    requests: windows.reduce((a, w) => a + w.requests, 0),
    p50: median(windows.map((w) => w.p50)),
    p99: median(windows.map((w) => w.p99)),
    failedBy,
  };
}

export function fleetSide(windows: FleetSample[]): FleetSide {
  const m = (pick: (w: FleetSample) => number) => median(windows.map(pick));
  return {
    cpuMsPerRequest: m((w) => w.cpuMsPerRequest),
    answeredPerS: m((w) => w.answeredPerS),
    sentPerS: m((w) => w.rps),
    token: kind(windows.map((w) => w.token)),
    heartbeat: kind(windows.map((w) => w.heartbeat)),
    windows,
  };
}

/** Every failed answer of a side, by status, tokens and heartbeats added up. */
export function failures(s: FleetSide): Record<string, number> {
  const all: Record<string, number> = { ...s.token.failedBy };
  for (const [status, n] of Object.entries(s.heartbeat.failedBy))
    all[status] = (all[status] ?? 0) + n;
  return all;
}

/**
 * `fleet_cpu_ratio`: the twin's CPU per fleet request divided by the service's. A twin that failed
 * answers is no floor (its CPU per answer rises, and the ratio with it): NaN, which no limit passes.
 */
export const fleetCpuRatio = (r: FleetResult) =>
  Object.keys(failures(r.twin)).length > 0
    ? NaN
    : r.twin.cpuMsPerRequest / r.service.cpuMsPerRequest;

/** The fleet a core of the service serves: a device's requests per second into a CPU second. */
export const devicesPerCore = (cpuMsPerRequest: number) =>
  1000 / cpuMsPerRequest / REQUESTS_PER_DEVICE_PER_S;

/** The figures as lines of the results page. */
export function fleetMarkdown(r: FleetResult): string[] {
  const o = r.options;
  const row = (name: string, s: FleetSide) =>
    `| ${name} | ${f(s.sentPerS)} / ${f(s.answeredPerS)} | ${f(s.cpuMsPerRequest, 3)} | ` +
    `${f(devicesPerCore(s.cpuMsPerRequest))} | ` +
    `${f(s.token.p50, 1)} / ${f(s.token.p99, 1)} | ${f(s.heartbeat.p50, 1)} / ${f(s.heartbeat.p99, 1)} | ` +
    `${JSON.stringify(failures(s))} |`;
  return [
    '## The fleet against its twin (two instances each, PostgreSQL + Redis)',
    '',
    `Each side's ${r.instances} instances took the fleet's mix (a token per 15 minutes, a heartbeat per 5, ` +
      `per device; tokens with signed ES256 assertions of ${r.devices} registered keys) at ${o.rps} ` +
      `requests/s, ${o.rounds} windows of ${o.seconds} s each, interleaved with the other side's ` +
      `(${o.warmupSeconds} s warm-up first). Medians over the windows. **fleet_cpu_ratio ` +
      `${f(fleetCpuRatio(r), 2)}** (twin CPU / service CPU per request). If a side answered fewer ` +
      'than were sent, it was saturated and its latencies are queueing: lower BENCH_FLEET_RPS.',
    '',
    '| side | sent / answered per s | CPU ms/req | devices per core | token p50 / p99 ms | heartbeat p50 / p99 ms | failures by status |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- |',
    row('service', r.service),
    row('twin (bare Nest app)', r.twin),
    '',
    `Per window, CPU ms/req service / twin: ${r.service.windows
      .map(
        (w, i) => `${f(w.cpuMsPerRequest, 3)} / ${f(r.twin.windows[i]?.cpuMsPerRequest ?? NaN, 3)}`,
      )
      .join('; ')}.`,
    '',
  ];
}
