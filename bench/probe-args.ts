/**
 * The command line of the memory probes (bench/memory-probe.ts, bench/rss-climb.ts): numeric
 * options and the sets they compare, `name[@checkout]=<node flags and NAME=value variables>`.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';

/** One set: a build (this checkout or `root`), node flags, and variables for its process. */
export interface ProbeSet {
  name: string;
  root: string;
  flags: string[];
  /** `NAME=value` words among the flags: the process's environment (MALLOC_ARENA_MAX=2). */
  env: Record<string, string>;
}

/** `--name N` taken out of `argv` (so what is left are sets and switches), or `fallback`. */
export function numberOption(argv: string[], name: string, fallback: number): number {
  const i = argv.indexOf(name);
  return i >= 0 ? Number(argv.splice(i, 2)[1]) : fallback;
}

/** The sets among the arguments (words with `=` that are not `--options`). */
export function probeSets(argv: readonly string[]): ProbeSet[] {
  return argv.filter((a) => !a.startsWith('--') && a.includes('=')).map(probeSet);
}

export function probeSet(arg: string): ProbeSet {
  const eq = arg.indexOf('=');
  const [name, root] = arg.slice(0, eq).split('@');
  const words = arg
    .slice(eq + 1)
    .split(/\s+/)
    .filter((w) => w.length > 0);
  const isEnv = (w: string) => /^[A-Z_]+=/.test(w);
  return {
    name,
    root: root ?? join(__dirname, '..'),
    flags: words.filter((w) => !isEnv(w)),
    env: Object.fromEntries(words.filter(isEnv).map((w) => w.split('=', 2) as [string, string])),
  };
}

/** The 1-, 5- and 15-minute load averages, as the probes print them. */
export function loadAverages(): string {
  return loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
}
