/** The markdown of `npm run bench:profile-diff` (bench/profile-diff.ts). */
import { relative } from 'node:path';
import type { Alloc } from './alloc-profile';
import { allocSection, allocSummary } from './alloc-report';
import type { Endpoint } from './load';
import { Cpu, functionGap, gap, GapRow, Measured, processUs } from './profile-gap';
import { LAYERS } from './profile-layers';
import type { Counts } from './request-counts';

export interface RouteDiff {
  endpoint: Endpoint;
  service: Measured;
  bare: Measured;
  /** Every measured window of the route, both servers, in the order taken. */
  rounds: (Cpu & { name: string })[];
  serviceCounts?: Counts;
  bareCounts?: Counts;
  serviceAlloc?: Alloc;
  bareAlloc?: Alloc;
}

export interface Meta {
  date: string;
  command: string;
  loadAtStart: number[];
  loadAtEnd: number[];
  dir: string;
  /** BENCH_DIFF_FLAGS, on both servers. */
  extraFlags: string[];
  settings: {
    rounds: number;
    seconds: number;
    warmupSeconds: number;
    connections: number;
    countRequests: number;
    countConnections: number;
  };
}

/** The layers' labels here: the app's own code is dist/ on the service, bench/*.ts on the bare app. */
const label = (layer: string) =>
  layer === 'service code (dist/)' ? 'app code (service: dist/; bare app: bench/*.ts)' : layer;
const us = (n: number) => n.toFixed(1);
const pct = (n: number) => (Number.isFinite(n) ? `${(100 * n).toFixed(0)} %` : '–');
const loads = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
const msPerReq = (w: Cpu) => (processUs(w) / 1000).toFixed(3);

/** The three rows that make up most of the gap, as `layer µs (part)`. */
function biggest(rows: GapRow[]): string {
  return [...rows]
    .sort((a, b) => b.gapUs - a.gapUs)
    .slice(0, 3)
    .map((r) => `${label(r.layer).replace(/ \(.*/, '')} ${us(r.gapUs)} (${pct(r.part)})`)
    .join('; ');
}

const pair = (s: number | undefined, b: number | undefined, digits = 0) =>
  s === undefined || b === undefined ? '–' : `${s.toFixed(digits)} / ${b.toFixed(digits)}`;

function summary(routes: RouteDiff[]): string[] {
  const lines = [
    '| route | service µs/req | bare µs/req | gap µs | bare / service | largest parts of the gap, µs (part) | promises/req s / b | header bytes s / b |',
    '| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |',
  ];
  for (const r of routes) {
    const g = gap(r.service, r.bare, LAYERS);
    const [sc, bc] = [r.serviceCounts, r.bareCounts];
    lines.push(
      `| ${r.endpoint} | ${us(g.serviceUs)} | ${us(g.bareUs)} | ${us(g.gapUs)} | ` +
        `${(g.bareUs / g.serviceUs).toFixed(2)} | ${biggest(g.rows)} | ` +
        `${pair(sc?.perRequest.PROMISE, bc?.perRequest.PROMISE, 1)} | ${pair(sc?.headerBytes, bc?.headerBytes)} |`,
    );
  }
  return lines;
}

function routeSection(r: RouteDiff): string[] {
  const g = gap(r.service, r.bare, LAYERS);
  const rounds = (name: string) =>
    r.rounds
      .filter((w) => w.name === name)
      .map(msPerReq)
      .join(', ');
  const lines = [
    '',
    `## ${r.endpoint}`,
    '',
    `CPU ms/req per window under the profiler: service ${rounds('service')}; bare ${rounds('bare-nest')}.`,
    '',
    '| layer | service µs/req | bare µs/req | gap µs | part of the gap |',
    '| --- | ---: | ---: | ---: | ---: |',
  ];
  for (const row of g.rows) {
    if (Math.abs(row.serviceUs) < 0.05 && Math.abs(row.bareUs) < 0.05) continue;
    lines.push(
      `| ${label(row.layer)} | ${us(row.serviceUs)} | ${us(row.bareUs)} | ${us(row.gapUs)} | ${pct(row.part)} |`,
    );
  }
  lines.push(
    `| **process CPU** (without the profiler's thread) | ${us(g.serviceUs)} | ${us(g.bareUs)} | ${us(g.gapUs)} | 100 % |`,
    `| the profiler's thread (apart) | ${us(g.profilerUs[0])} | ${us(g.profilerUs[1])} | | |`,
    `| busy samples (main thread) | ${r.service.busy} | ${r.bare.busy} | | |`,
    '',
    'Functions whose self time grew the most (µs/req):',
    '',
    '| function | service | bare | gap | part |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...functionGap(r.service, r.bare, 12).map(
      (f) =>
        `| \`${f.layer}\` | ${us(f.serviceUs)} | ${us(f.bareUs)} | ${us(f.gapUs)} | ${pct(f.part)} |`,
    ),
  );
  return [...lines, ...countsSection(r), ...allocSection(r.serviceAlloc, r.bareAlloc)];
}

function countsSection(r: RouteDiff): string[] {
  const [s, b] = [r.serviceCounts, r.bareCounts];
  if (!s || !b) return [];
  const keys = [...new Set([...Object.keys(s.perRequest), ...Object.keys(b.perRequest)])];
  const at = (c: Counts, k: string) => c.perRequest[k] ?? 0;
  const types = keys
    .filter((t) => !t.startsWith('gc ') && (at(s, t) >= 0.05 || at(b, t) >= 0.05))
    .sort((x, y) => at(s, y) - at(s, x));
  const collections = keys.filter((k) => k.startsWith('gc ') && k !== 'gc pause µs').sort();
  const total = (c: Counts) => types.reduce((a, t) => a + at(c, t), 0);
  const row = (what: string, sv: string, bv: string) => `| ${what} | ${sv} | ${bv} |`;
  return [
    '',
    '| unprofiled pass | service | bare |',
    '| --- | ---: | ---: |',
    ...types.map((t) => row(`${t} per request`, at(s, t).toFixed(1), at(b, t).toFixed(1))),
    row('all async resources per request', total(s).toFixed(1), total(b).toFixed(1)),
    ...collections.map((k) =>
      row(
        `${k.slice(3)} per 1000 requests`,
        (1000 * at(s, k)).toFixed(1),
        (1000 * at(b, k)).toFixed(1),
      ),
    ),
    row(
      'GC pause per request, µs (main thread, wall clock)',
      at(s, 'gc pause µs').toFixed(1),
      at(b, 'gc pause µs').toFixed(1),
    ),
    row('V8 heap in use after the window, MB', s.heapUsedMb.toFixed(1), b.heapUsedMb.toFixed(1)),
    row('response head bytes (status line to blank line)', `${s.headerBytes}`, `${b.headerBytes}`),
    row('response body bytes', `${s.bodyBytes}`, `${b.bodyBytes}`),
    '',
    `Service head: ${s.head[0]}; ${s.head.slice(1).join(', ')}.`,
    `Bare head: ${b.head[0]}; ${b.head.slice(1).join(', ')}.`,
  ];
}

export function diffMarkdown(routes: RouteDiff[], m: Meta): string {
  const o = m.settings;
  const lines = [
    `# The service's CPU beyond the bare Nest app's, by layer, ${m.date}`,
    '',
    `\`${m.command}\`${m.extraFlags.length ? ` with BENCH_DIFF_FLAGS=\`${m.extraFlags.join(' ')}\`` : ''}. **1-minute / 5-minute / 15-minute load average: ${loads(m.loadAtStart)} at ` +
      `the start, ${loads(m.loadAtEnd)} at the end.**`,
    '',
    'The built service and the bare Nest app (bench/bare-nest.ts: the same SQL and crypto, no ' +
      'guards, pipes, logging or headers) under `node --cpu-prof` with the same node flags, on one ' +
      `PostgreSQL database with the small tables, both pinned to one core. Per route ${o.rounds} ` +
      `rounds of ${o.seconds} s at ${o.connections} connections per server (a ${o.warmupSeconds} s ` +
      'warm-up before the first), the servers taking turns (service, bare, then bare, service), ' +
      "samples and CPU summed over the rounds. A layer's µs/req is its share of the main thread's " +
      'busy samples (bench/profile-layers.ts: the top frame with a script decides) times the main ' +
      "thread's CPU per request from /proc over the same windows; the other threads' CPU is a row " +
      "of its own, so the rows add up to the process. The profiler's own thread (v8:ProfEvntProc) " +
      'is shown apart and left out of the totals: it costs about the same per second on either ' +
      'server. The gap is service minus bare; its parts add up to 100 %. The sampling still costs ' +
      'the main thread something: absolute µs here are above those of `npm run bench`; the gap and ' +
      'its parts are what to read.',
    '',
    'The unprofiled pass: each server alone with bench/promise-count.js preloaded, per route ' +
      `${o.countRequests} requests at ${o.countConnections} connections after a warm-up, the ` +
      "idle server's background work over the same time subtracted: first the garbage " +
      "collections (perf_hooks' gc entries: count by kind, main-thread pause) and the heap in " +
      'use, then, in a server with an async_hooks init hook, the async resources created per ' +
      "request; then one request on a raw socket for the bytes of the response's head (status " +
      'line to the blank line, inclusive) and body.',
    '',
    ...summary(routes),
    ...allocSummary(
      routes.map((r) => ({ endpoint: r.endpoint, s: r.serviceAlloc, b: r.bareAlloc })),
    ),
    ...routes.flatMap(routeSection),
    '',
    `Profiles: \`${relative(process.cwd(), m.dir)}/\`.`,
  ];
  return `${lines.join('\n')}\n`;
}
