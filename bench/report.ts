import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Endpoint, LoadOutput } from './load';
import { devicesPerCore, fleetCpuRatio, fleetMarkdown, type FleetResult } from './fleet-report';
import type { ConsoleResult } from './console';
import type { LivenessResult } from './liveness';
import { f, median } from './stats';

/** One measured window: the load generator's figures plus what the server process used. */
export interface Sample extends Omit<LoadOutput, 'subscriptionsUsed'> {
  round: number;
  cpuSeconds: number;
  cpuMsPerRequest: number;
  rssMaxMb: number;
}

/** Where a row was measured: the table size and the database. */
export type Phase = 'small' | 'large' | 'embedded';

/** Medians over the rounds of one endpoint on one server in one phase. */
export interface Row {
  phase: Phase;
  endpoint: Endpoint;
  target: string;
  rps: number;
  p50: number;
  p99: number;
  cpuMsPerRequest: number;
  non2xx: number;
  samples: Sample[];
}

export interface Target {
  id: string;
  measured: number;
  limit: number;
  /** 'min': measured must be at least the limit; 'max': at most. */
  kind: 'min' | 'max';
}

/** The service's growth from the small to the large tables; both sizes measured in every round. */
export interface Growth {
  endpoint: Endpoint;
  /** Medians over the rounds of each size's p99. */
  smallP99: number;
  largeP99: number;
  /** The median of the per-round ratios (large p99 / small p99 of the same round). */
  ratio: number;
  roundRatios: number[];
  /** CPU ms per request at each size: whether the work grew, or only the wait. */
  smallCpuMs: number;
  largeCpuMs: number;
  /** The median of the per-round ratios of CPU ms per request, large / small. */
  cpuRatio: number;
}

export interface Results {
  date: string;
  quick: boolean;
  machine: Record<string, string | number | boolean>;
  loadAverage: { start: number[]; end: number[] };
  /** The 1-minute load average was 1 or more before the run: not a quiet machine's numbers. */
  startedBusy: boolean;
  sizes: Record<string, unknown>;
  rows: Row[];
  growth: Growth[];
  boot: { coldS: number; warmS: number[]; warmMedianS: number };
  memory: { rssUnderLoadMb: number; embeddedIdleRssMb: number };
  targets: Target[];
  /** The fleet against its twin (bench/fleet.ts): two instances of each on PostgreSQL + Redis. */
  fleet?: FleetResult;
  /** One liveness pass on the large database (bench/liveness.ts). */
  liveness?: LivenessResult;
  /** The operators' console in Chromium (bench/console.ts). */
  console?: ConsoleResult;
}

function livenessLines(l: LivenessResult): string[] {
  return [
    '## One liveness pass (large database)',
    '',
    `${l.crossing} of ${l.devices} devices past their deadline; \`cli device:liveness\` reported ` +
      `${f(l.offline)} offline in ${f(l.batches)} batches, **${f(l.passMs, 1)} ms**. The plan of ` +
      `LIVENESS_PASS_SQL (${l.planSource}) ${l.indexOnly ? 'is a range of IDX_devices_liveness_due, no Seq Scan' : 'is NOT an index range'}: ` +
      'bench/plans.md.',
    '',
  ];
}

export function summarize(
  phase: Phase,
  endpoint: Endpoint,
  target: string,
  samples: Sample[],
): Row {
  return {
    phase,
    endpoint,
    target,
    rps: median(samples.map((s) => s.rps)),
    p50: median(samples.map((s) => s.p50)),
    p99: median(samples.map((s) => s.p99)),
    cpuMsPerRequest: median(samples.map((s) => s.cpuMsPerRequest)),
    non2xx: samples.reduce((a, s) => a + s.non2xx + s.errors, 0),
    samples,
  };
}

export const passes = (t: Target) =>
  t.kind === 'min' ? t.measured >= t.limit : t.measured <= t.limit;

function rowsTable(r: Results, phase: Phase): string[] {
  const rows = r.rows.filter((x) => x.phase === phase);
  if (rows.length === 0) return [];
  const lines = [
    `### ${phase === 'embedded' ? 'Embedded default (PGlite), small tables' : `PostgreSQL, ${phase} tables`}`,
    '',
    '| endpoint | server | req/s | p50 ms | p99 ms | CPU ms/req | non-2xx | bare-nest CPU / this CPU |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of rows) {
    const bare = rows.find((x) => x.endpoint === row.endpoint && x.target === 'bare-nest');
    const ratio = bare ? f(bare.cpuMsPerRequest / row.cpuMsPerRequest, 2) : '';
    lines.push(
      `| ${row.endpoint} | ${row.target} | ${f(row.rps)} | ${f(row.p50, 1)} | ${f(row.p99, 1)} | ` +
        `${f(row.cpuMsPerRequest, 3)} | ${row.non2xx} | ${ratio} |`,
    );
  }
  return [...lines, ''];
}

/** The machine as the run found and left it; in bold when it did not start quiet. */
export function machineLines(start: number[], end: number[]): string[] {
  const busy = start[0] >= 1;
  return [
    `**1-minute load average: ${f(start[0], 2)} at the start, ${f(end[0], 2)} at the end.**`,
    '',
    ...(busy
      ? [
          `**This run did not start on a quiet machine (load average ${f(start[0], 2)}, 1 or more): ` +
            'read its ratios, not its milliseconds.**',
          '',
        ]
      : []),
    `- load average at start (1/5/15 min): ${start.map((l) => f(l, 2)).join(' / ')}`,
    `- load average at end (1/5/15 min): ${end.map((l) => f(l, 2)).join(' / ')}`,
  ];
}

/** The fleet's and the liveness pass's targets, for whichever of them ran. */
export function fleetTargets(fleet?: FleetResult, liveness?: LivenessResult): Target[] {
  return [
    ...(fleet
      ? [
          {
            id: 'fleet_cpu_ratio',
            measured: fleetCpuRatio(fleet),
            limit: 0.6,
            kind: 'min' as const,
          },
        ]
      : []),
    ...(liveness
      ? [{ id: 'liveness_pass_ms', measured: liveness.passMs, limit: 1_000, kind: 'max' as const }]
      : []),
  ];
}

export function targetsTable(targets: Target[]): string[] {
  return [
    '| id | measured | limit | result |',
    '| --- | ---: | ---: | --- |',
    ...targets.map(
      (t) =>
        `| ${t.id} | ${f(t.measured, t.limit < 2 ? 3 : 1)} | ${t.kind === 'min' ? '>=' : '<='} ${t.limit} | ` +
        `${passes(t) ? 'pass' : 'MISS'} |`,
    ),
  ];
}

export function markdown(r: Results): string {
  const lines = [
    `# Benchmark ${r.date}${r.quick ? ' (quick)' : ''}`,
    '',
    ...machineLines(r.loadAverage.start, r.loadAverage.end),
    Object.entries(r.machine)
      .map(([k, v]) => `- ${k}: ${v}`)
      .join('\n'),
    '',
    '## Targets',
    '',
    ...targetsTable(r.targets),
    '',
    ...reported(r),
    '',
    '## Per route (medians over the rounds)',
    '',
    ...rowsTable(r, 'small'),
    ...rowsTable(r, 'large'),
    ...rowsTable(r, 'embedded'),
    '## Growth (service on PostgreSQL, large tables against small, the same rounds)',
    '',
    'A service process on each database; in every round their windows are next to each other ' +
      '(small then large, then large then small), and the ratio is taken per round. `health` reads ' +
      'no table: it is the control, whatever it shows is the machine.',
    '',
    '| endpoint | p99 small ms | p99 large ms | p99 growth (median of rounds) | per round | ' +
      'CPU ms/req small | CPU ms/req large | CPU large / small |',
    '| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: |',
    ...r.growth.map(
      (g) =>
        `| ${g.endpoint === 'health' ? 'health (control)' : g.endpoint} | ${f(g.smallP99, 1)} | ` +
        `${f(g.largeP99, 1)} | ${f(g.ratio, 2)} | ${g.roundRatios.map((x) => f(x, 2)).join(', ')} | ` +
        `${f(g.smallCpuMs, 3)} | ${f(g.largeCpuMs, 3)} | ${f(g.cpuRatio, 2)} |`,
    ),
    '',
    `Table sizes: ${Object.entries(r.sizes)
      .map(([k, v]) => `${k} ${JSON.stringify(v)}`)
      .join('; ')}.`,
    '',
    ...(r.fleet ? fleetMarkdown(r.fleet) : []),
    ...(r.liveness ? livenessLines(r.liveness) : []),
  ];
  return `${lines.join('\n')}\n`;
}

/** The figures reported, not judged: they measure the machine as much as the build. */
function reported(r: Results): string[] {
  return [
    `Reported, not judged: warm boot to the first healthy answer, embedded database, median ` +
      `**${f(r.boot.warmMedianS, 2)} s** (${r.boot.warmS.map((b) => f(b, 2)).join(', ')}; cold, ` +
      `with migrations, ${f(r.boot.coldS, 2)} s)` +
      (r.fleet
        ? `; devices per service core **${f(devicesPerCore(r.fleet.service.cpuMsPerRequest))}**.`
        : '.'),
    `Service resident memory under load on PostgreSQL (max sampled): ${f(r.memory.rssUnderLoadMb, 1)} MB; ` +
      `idle on the embedded default: ${f(r.memory.embeddedIdleRssMb, 1)} MB.`,
  ];
}

export function write(dir: string, r: Results): string {
  mkdirSync(dir, { recursive: true });
  const stamp = r.date.replace(/[:]/g, '-').replace(/\..*$/, '');
  const md = markdown(r);
  writeFileSync(join(dir, `${stamp}.md`), md);
  writeFileSync(join(dir, `${stamp}.json`), `${JSON.stringify(r, null, 2)}\n`);
  // docs/benchmarks.md links this one.
  writeFileSync(join(dir, 'latest.md'), `Latest run: [${stamp}.md](${stamp}.md)\n\n${md}`);
  return md;
}
