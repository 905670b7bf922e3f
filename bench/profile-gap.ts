/**
 * The arithmetic of `npm run bench:profile-diff`: where the CPU a request costs goes, per layer,
 * on the service and on the bare Nest app, and the difference. A layer's microseconds per request
 * are its share of the main thread's busy samples times the main thread's CPU per request (from
 * /proc, over the same windows); what the process spent on its other threads (V8's GC helpers and
 * compiler, libuv's pool) is a row of its own, so the rows add up to the process's CPU per request.
 * The profiler's own thread (v8:ProfEvntProc) is left out of the totals: it is the measurement's
 * cost, about the same per second whatever the server does, so per request the slower server
 * would seem to pay more for it.
 */

/** One server's windows on one route, summed over the rounds. */
export interface Measured {
  /** Busy samples in the windows (idle and "(program)" excluded). */
  busy: number;
  byLayer: Map<string, number>;
  byFunction: Map<string, number>;
  /** CPU seconds over the windows: the main thread, the others by name (not the profiler's), the profiler's. */
  mainCpuS: number;
  threadsCpuS: Map<string, number>;
  profilerCpuS: number;
  requests: number;
}

/** The other threads' rows, by the name the thread has in /proc. */
const THREADS: Record<string, string> = {
  V8Worker: 'V8 worker threads (parallel and concurrent GC, background compiler)',
  'libuv-worker': "libuv's pool (fs, dns, crypto jobs)",
};
export const threadRow = (name: string) => THREADS[name] ?? `thread ${name}`;

export interface GapRow {
  layer: string;
  serviceUs: number;
  bareUs: number;
  /** Service minus bare. */
  gapUs: number;
  /** gapUs over the whole gap (NaN when the service is not the dearer one). */
  part: number;
}

export interface Gap {
  rows: GapRow[];
  /** CPU per request of the process without the profiler's thread. */
  serviceUs: number;
  bareUs: number;
  gapUs: number;
  /** The profiler's thread per request, apart. */
  profilerUs: [service: number, bare: number];
}

/** Windows summed: samples, CPU and requests add up, so a round with more requests weighs more. */
export function sum(list: Measured[]): Measured {
  const total: Measured = {
    busy: 0,
    byLayer: new Map(),
    byFunction: new Map(),
    mainCpuS: 0,
    threadsCpuS: new Map(),
    profilerCpuS: 0,
    requests: 0,
  };
  for (const m of list) {
    total.busy += m.busy;
    total.mainCpuS += m.mainCpuS;
    for (const [k, v] of m.threadsCpuS)
      total.threadsCpuS.set(k, (total.threadsCpuS.get(k) ?? 0) + v);
    total.profilerCpuS += m.profilerCpuS;
    total.requests += m.requests;
    for (const [k, v] of m.byLayer) total.byLayer.set(k, (total.byLayer.get(k) ?? 0) + v);
    for (const [k, v] of m.byFunction) total.byFunction.set(k, (total.byFunction.get(k) ?? 0) + v);
  }
  return total;
}

/** Microseconds per request of each key of `counts` (samples), over the main thread's CPU. */
export function perRequestUs(m: Measured, counts: Map<string, number>): Map<string, number> {
  if (m.busy === 0 || m.requests === 0) throw new Error('no busy samples or no requests');
  const mainUs = (m.mainCpuS * 1e6) / m.requests;
  return new Map([...counts].map(([k, n]) => [k, (n / m.busy) * mainUs]));
}

export type Cpu = Pick<Measured, 'mainCpuS' | 'threadsCpuS' | 'requests'>;

/** The CPU per request of the process without the profiler's thread, in microseconds. */
export const processUs = (m: Cpu) =>
  ((m.mainCpuS + [...m.threadsCpuS.values()].reduce((a, v) => a + v, 0)) * 1e6) / m.requests;
const profilerUs = (m: Measured) => (m.profilerCpuS * 1e6) / m.requests;

/** Rows in `layers`' order, then the other threads; the totals are the processes' CPU. */
export function gap(service: Measured, bare: Measured, layers: readonly string[]): Gap {
  const s = perRequestUs(service, service.byLayer);
  const b = perRequestUs(bare, bare.byLayer);
  for (const [m, into] of [
    [service, s],
    [bare, b],
  ] as const) {
    for (const [name, cpu] of m.threadsCpuS) into.set(threadRow(name), (cpu * 1e6) / m.requests);
  }
  const threads = [...new Set([...service.threadsCpuS.keys(), ...bare.threadsCpuS.keys()])];
  const serviceUs = processUs(service);
  const bareUs = processUs(bare);
  const gapUs = serviceUs - bareUs;
  const rows = [...layers, ...threads.sort().map(threadRow)].map((layer) => {
    const serviceUs = s.get(layer) ?? 0;
    const bareUs = b.get(layer) ?? 0;
    const d = serviceUs - bareUs;
    return { layer, serviceUs, bareUs, gapUs: d, part: gapUs > 0 ? d / gapUs : NaN };
  });
  // The rows are the whole: the layers' samples are all the busy ones, the threads the rest.
  const off = Math.abs(rows.reduce((a, r) => a + r.gapUs, 0) - gapUs);
  if (off > 1e-6 * Math.max(1, serviceUs)) throw new Error(`the rows miss ${off} µs of the gap`);
  return { rows, serviceUs, bareUs, gapUs, profilerUs: [profilerUs(service), profilerUs(bare)] };
}

/** The functions whose self time grew the most from the bare app to the service, in µs/request. */
export function functionGap(service: Measured, bare: Measured, n: number): GapRow[] {
  const s = perRequestUs(service, service.byFunction);
  const b = perRequestUs(bare, bare.byFunction);
  const total = processUs(service) - processUs(bare);
  return [...new Set([...s.keys(), ...b.keys()])]
    .map((layer) => {
      const serviceUs = s.get(layer) ?? 0;
      const bareUs = b.get(layer) ?? 0;
      const d = serviceUs - bareUs;
      return { layer, serviceUs, bareUs, gapUs: d, part: total > 0 ? d / total : NaN };
    })
    .sort((x, y) => y.gapUs - x.gapUs)
    .slice(0, n);
}
