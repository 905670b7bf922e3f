import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Endpoint, LoadOutput } from './load';

/** One measured window: the load generator's figures plus what the server process used. */
export interface Sample extends Omit<LoadOutput, 'subscriptionsUsed'> {
  round: number;
  cpuSeconds: number;
  rssMaxMb: number;
}

export interface Row {
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
  name: string;
  measured: number;
  limit: number;
  /** 'min': measured must be at least the limit; 'max': at most. */
  kind: 'min' | 'max';
  note: string;
}

export interface Results {
  date: string;
  machine: Record<string, string | number | boolean>;
  rows: Row[];
  bootMs: { cold: number; warm: number[] };
  rssMaxMb: number;
  targets: Target[];
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

export function summarize(endpoint: Endpoint, target: string, samples: Sample[]): Row {
  const requests = samples.reduce((a, s) => a + s.requests, 0);
  const cpu = samples.reduce((a, s) => a + s.cpuSeconds, 0);
  return {
    endpoint,
    target,
    rps: mean(samples.map((s) => s.rps)),
    p50: mean(samples.map((s) => s.p50)),
    p99: mean(samples.map((s) => s.p99)),
    cpuMsPerRequest: (cpu * 1000) / Math.max(1, requests),
    non2xx: samples.reduce((a, s) => a + s.non2xx + s.errors, 0),
    samples,
  };
}

const f = (n: number, digits = 0) => n.toFixed(digits);
const passes = (t: Target) => (t.kind === 'min' ? t.measured >= t.limit : t.measured <= t.limit);

export function markdown(r: Results, findings: string): string {
  const lines = [
    `# Benchmark ${r.date}`,
    '',
    Object.entries(r.machine)
      .map(([k, v]) => `- ${k}: ${v}`)
      .join('\n'),
    '',
    '| endpoint | target | req/s | p50 ms | p99 ms | CPU ms/req | non-2xx | service/ref req/s | service/ref p99 | service/ref CPU ms/req | service - ref CPU ms/req |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const row of r.rows) {
    const service = r.rows.find((x) => x.endpoint === row.endpoint && x.target === 'service');
    const ref = row.target !== 'service' && service;
    const ratio = ref ? f(service.rps / row.rps, 2) : '';
    const p99 = ref ? f(service.p99 / row.p99, 2) : '';
    const cpu = ref ? f(service.cpuMsPerRequest / row.cpuMsPerRequest, 2) : '';
    const extra = ref ? f(service.cpuMsPerRequest - row.cpuMsPerRequest, 3) : '';
    lines.push(
      `| ${row.endpoint} | ${row.target} | ${f(row.rps)} | ${f(row.p50, 1)} | ${f(row.p99, 1)} | ` +
        `${f(row.cpuMsPerRequest, 3)} | ${row.non2xx} | ${ratio} | ${p99} | ${cpu} | ${extra} |`,
    );
  }
  lines.push(
    '',
    `Boot to first healthy answer, embedded database: cold (first boot, migrations) ${f(r.bootMs.cold)} ms; ` +
      `warm ${r.bootMs.warm.map((b) => `${f(b)} ms`).join(', ')}.`,
    `Service resident memory under load on PostgreSQL (max sampled): ${f(r.rssMaxMb, 1)} MB.`,
    '',
    '## Targets',
    '',
    '| target | measured | limit | result | note |',
    '| --- | ---: | ---: | --- | --- |',
    ...r.targets.map(
      (t) =>
        `| ${t.name} | ${f(t.measured, 2)} | ${t.kind === 'min' ? '>=' : '<='} ${t.limit} | ` +
        `${passes(t) ? 'pass' : 'MISS'} | ${t.note} |`,
    ),
    '',
    findings,
  );
  return `${lines.join('\n')}\n`;
}

export function write(dir: string, r: Results, findings: string, suffix = ''): string {
  mkdirSync(dir, { recursive: true });
  const stamp = r.date.replace(/[:]/g, '-').replace(/\..*$/, '') + suffix;
  const md = markdown(r, findings);
  writeFileSync(join(dir, `${stamp}.md`), md);
  writeFileSync(join(dir, `${stamp}.json`), `${JSON.stringify(r, null, 2)}\n`);
  // The README links this one.
  writeFileSync(join(dir, `latest${suffix}.md`), `Latest run: [${stamp}.md](${stamp}.md)\n\n${md}`);
  return md;
}
