/**
 * The measured windows: every route on every server, round after round, the order of the servers
 * reversed each round. Each server reads one database; two service processes on a small and a
 * large database take their windows next to each other in every round (small, large, then
 * large, small), so the machine's drift over minutes falls on both sizes alike.
 */
import type { FakeProcessor } from '../test/support/fake-processor';
import type { Endpoint } from './load';
import { runWindow } from './load-input';
import { cpuSeconds, LoadWorker, rssMb, Server } from './procs';
import { Growth, Phase, Row, Sample, summarize } from './report';
import { median } from './stats';
import type { Seeded } from './seed';

/** One database the servers read: its tables, its fake processor, the next unpaid subscription. */
export interface Db {
  phase: Phase;
  seeded: Seeded;
  fake: FakeProcessor;
  next: { subscription: number };
}

/** A server on its database. */
export interface Bound {
  server: Server;
  db: Db;
}

export interface RoundsOptions {
  endpoints: Endpoint[];
  /** Routes only the service has (the bare app has no cursor). */
  serviceOnly: Set<Endpoint>;
  rounds: number;
  seconds: number;
  warmupSeconds: number;
  connections: number;
  worker: LoadWorker;
}

export interface RoundsResult {
  rows: Row[];
  /** The service's highest resident set seen under load. */
  rssMaxMb: number;
}

async function load(b: Bound, endpoint: Endpoint, seconds: number, o: RoundsOptions) {
  const { worker, connections } = o;
  const out = await runWindow(worker, b.server.url, endpoint, b.db.seeded, b.db.next, {
    seconds,
    connections,
  });
  if (b.db.next.subscription > b.db.seeded.size.subscriptions) {
    console.warn('  (the pending subscriptions are used up: later webhook events pay nothing)');
  }
  return out;
}

async function measure(b: Bound, endpoint: Endpoint, round: number, o: RoundsOptions) {
  b.db.fake.reset();
  if (round === 0) await load(b, endpoint, o.warmupSeconds, o);
  const pid = b.server.child.pid!;
  const cpu0 = cpuSeconds(pid);
  let rssMax = 0;
  const sampler = setInterval(() => (rssMax = Math.max(rssMax, rssMb(pid))), 200);
  const out = await load(b, endpoint, o.seconds, o);
  clearInterval(sampler);
  const cpu = cpuSeconds(pid) - cpu0;
  // A window that got no answer has no latency and no CPU per request (not 0, not CPU / 1).
  const none = out.requests === 0;
  if (none)
    console.warn(`  (no answer in the window: ${endpoint} on ${b.server.name}/${b.db.phase})`);
  const sample: Sample = {
    round,
    requests: out.requests,
    seconds: out.seconds,
    rps: out.rps,
    p50: none ? NaN : out.p50,
    p99: none ? NaN : out.p99,
    non2xx: out.non2xx,
    errors: out.errors,
    cpuSeconds: cpu,
    cpuMsPerRequest: none ? NaN : (cpu * 1000) / out.requests,
    rssMaxMb: rssMax,
  };
  console.log(
    `  round ${round + 1} ${endpoint.padEnd(11)} ${`${b.server.name}/${b.db.phase}`.padEnd(16)} ` +
      `${sample.rps.toFixed(0).padStart(6)} req/s p50 ${sample.p50} p99 ${sample.p99} ms ` +
      `CPU ${sample.cpuMsPerRequest.toFixed(3)} ms/req non-2xx ${sample.non2xx + sample.errors} ` +
      `RSS ${rssMax.toFixed(0)} MB`,
  );
  return sample;
}

/** Rounds interleaved: each round runs every endpoint on every server, the order alternating. */
export async function rounds(servers: Bound[], o: RoundsOptions): Promise<RoundsResult> {
  const samples = new Map<string, Sample[]>();
  let rssMaxMb = 0;
  for (let round = 0; round < o.rounds; round++) {
    for (const endpoint of o.endpoints) {
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const b of order) {
        if (o.serviceOnly.has(endpoint) && b.server.name !== 'service') continue;
        const key = `${b.db.phase}|${endpoint}|${b.server.name}`;
        const sample = await measure(b, endpoint, round, o);
        if (b.server.name === 'service') rssMaxMb = Math.max(rssMaxMb, sample.rssMaxMb);
        samples.set(key, [...(samples.get(key) ?? []), sample]);
      }
    }
  }
  const rows = [...samples.entries()].map(([key, list]) => {
    const [phase, endpoint, target] = key.split('|') as [Phase, Endpoint, string];
    return summarize(phase, endpoint, target, list);
  });
  return { rows, rssMaxMb };
}

/**
 * The service's growth from the small to the large tables, per route: in every round the two
 * windows were taken next to each other, so the ratio is taken per round and its median reported.
 */
export function growth(rows: Row[], endpoints: Endpoint[]): Growth[] {
  const row = (phase: Phase, e: Endpoint) =>
    rows.find((r) => r.phase === phase && r.endpoint === e && r.target === 'service');
  return endpoints.map((endpoint) => {
    const small = row('small', endpoint)?.samples ?? [];
    const large = row('large', endpoint)?.samples ?? [];
    const paired = small
      .map((s) => [s, large.find((l) => l.round === s.round)] as const)
      .filter((p): p is readonly [Sample, Sample] => p[1] !== undefined);
    const roundRatios = paired.map(([s, l]) => l.p99 / s.p99);
    const smallCpu = median(small.map((s) => s.cpuMsPerRequest));
    const largeCpu = median(large.map((s) => s.cpuMsPerRequest));
    return {
      endpoint,
      smallP99: median(small.map((s) => s.p99)),
      largeP99: median(large.map((s) => s.p99)),
      ratio: median(roundRatios),
      roundRatios,
      smallCpuMs: smallCpu,
      largeCpuMs: largeCpu,
      cpuRatio: median(paired.map(([s, l]) => l.cpuMsPerRequest / s.cpuMsPerRequest)),
    };
  });
}
