/** The allocation tables of bench:profile-diff's markdown (bench/alloc-profile.ts, `--alloc`). */
import type { Alloc } from './alloc-profile';
import { LAYERS, Layer } from './profile-layers';

/** bench:profile-diff --survivors: the samples are of objects that outlived a scavenge. */
const survivors = () => process.env.HEAP_SAMPLE_SURVIVORS === 'on';

const kb = (bytes: number, requests: number) => bytes / 1024 / requests;
const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
const f1 = (n: number) => n.toFixed(1);
const pct = (n: number, of: number) => (of > 0 ? `${((100 * n) / of).toFixed(0)} %` : '–');

/** KB per request of a layer (or of the whole when no layer). */
const per = (a: Alloc, m: Map<Layer, number>, layer?: Layer) =>
  kb(layer ? (m.get(layer) ?? 0) : total(m), a.requests);

/** The allocation gap's largest parts, on behalf of, as `layer KB (part)`. */
export function allocBiggest(s: Alloc, b: Alloc): string {
  const gap = per(s, s.behalf) - per(b, b.behalf);
  return LAYERS.map((l) => ({ l, g: per(s, s.behalf, l) - per(b, b.behalf, l) }))
    .sort((x, y) => y.g - x.g)
    .slice(0, 3)
    .map(({ l, g }) => `${l.replace(/ \(.*|:.*/, '')} ${f1(g)} (${pct(g, gap)})`)
    .join('; ');
}

export function allocSummary(rows: { endpoint: string; s?: Alloc; b?: Alloc }[]): string[] {
  const have = rows.filter((r) => r.s && r.b);
  if (!have.length) return [];
  return [
    '',
    survivors()
      ? '### Bytes per request that outlived a young-generation collection (`--survivors`)'
      : '### Bytes allocated per request (sampling heap profiler, `--alloc`)',
    '',
    '| route | service KB/req | bare KB/req | gap KB | largest parts of the gap, on behalf of, KB (part) |',
    '| --- | ---: | ---: | ---: | --- |',
    ...have.map(({ endpoint, s, b }) => {
      const [sv, bv] = [per(s!, s!.top), per(b!, b!.top)];
      return `| ${endpoint} | ${f1(sv)} | ${f1(bv)} | ${f1(sv - bv)} | ${allocBiggest(s!, b!)} |`;
    }),
  ];
}

export function allocSection(s?: Alloc, b?: Alloc): string[] {
  if (!s || !b) return [];
  const gapTop = per(s, s.top) - per(b, b.top);
  const lines = [
    '',
    `${survivors() ? 'Bytes that outlived a scavenge' : 'Bytes allocated'} per request, KB (sampled windows of ${s.requests} and ${b.requests} requests). ` +
      '"Top": the layer of the frame that allocated; "on behalf of": the first frame up the stack ' +
      "outside node's own code.",
    '',
    '| layer | service top | bare top | gap top | service on behalf | bare on behalf | gap on behalf | part of the gap |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ];
  for (const l of LAYERS) {
    const v = [per(s, s.top, l), per(b, b.top, l), per(s, s.behalf, l), per(b, b.behalf, l)];
    if (v.every((x) => Math.abs(x) < 0.05)) continue;
    const g = v[2] - v[3];
    lines.push(
      `| ${l} | ${f1(v[0])} | ${f1(v[1])} | ${f1(v[0] - v[1])} | ${f1(v[2])} | ${f1(v[3])} | ${f1(g)} | ${pct(g, gapTop)} |`,
    );
  }
  const [st, bt] = [per(s, s.top), per(b, b.top)];
  lines.push(
    `| **all** | ${f1(st)} | ${f1(bt)} | ${f1(gapTop)} | ${f1(st)} | ${f1(bt)} | ${f1(gapTop)} | 100 % |`,
    '',
    'Functions that allocate the most in the service (KB/req, self):',
    '',
    '| function | service | bare |',
    '| --- | ---: | ---: |',
    ...[...s.byFunction]
      .sort((x, y) => y[1] - x[1])
      .slice(0, 12)
      .map(
        ([fn, bytes]) =>
          `| \`${fn}\` | ${f1(kb(bytes, s.requests))} | ${f1(kb(b.byFunction.get(fn) ?? 0, b.requests))} |`,
      ),
  );
  return lines;
}
