/**
 * The two servers of bench:profile-diff, the service and the bare Nest app, started with the same
 * node flags (start:prod's) and environment, plus what a pass adds (the profiler, the async-resource
 * counter); and their CPU read per thread from /proc.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  freePort,
  mainThreadCpuSeconds,
  otherThreadsCpuSeconds,
  Server,
  startServer,
  stopServer,
} from './procs';
import { referenceScript } from './reference-build';
import { seed, Seeded, SMALL } from './seed';
import { productionNodeArgs, serviceArgs, serviceEnv } from './service-env';

export const NAMES = ['service', 'bare-nest'] as const;
export type Name = (typeof NAMES)[number];

/** A server's node arguments with `extra` flags before its script. */
export function argsOf(name: Name, extra: string[]): string[] {
  if (name === 'bare-nest') {
    return [...productionNodeArgs(), ...extra, referenceScript('bare-nest')];
  }
  const service = serviceArgs();
  return [...service.slice(0, -1), ...extra, service[service.length - 1]];
}

/**
 * Node or V8 flags for both servers in this bench only, e.g. `--single-threaded-gc` (which
 * NODE_OPTIONS, and so BENCH_NODE_OPTIONS, refuses): to see what the V8 worker threads' row holds.
 */
export const EXTRA_FLAGS = (process.env.BENCH_DIFF_FLAGS ?? '').split(/\s+/).filter(Boolean);

export interface Env {
  /**
   * A server on the database, under the profiler when `profileDir`, counting when `count`, with
   * the heap sampler (bench/heap-sample.js) writing to `heapDir`.
   */
  start(
    name: Name,
    profileDir?: string,
    count?: { file: string; hook: boolean },
    heapDir?: string,
  ): Promise<Server>;
}

export function servers(databaseUrl: string, fakeUrl: string): Env {
  return {
    async start(name, profileDir, count, heapDir) {
      const port = await freePort();
      const flags = [...EXTRA_FLAGS, '-r', './bench/exit-on-term.js'];
      if (profileDir) {
        mkdirSync(join(profileDir, name), { recursive: true });
        flags.push('--cpu-prof', `--cpu-prof-dir=${join(profileDir, name)}`);
      }
      if (count) flags.push('-r', './bench/promise-count.js');
      if (heapDir) flags.push('-r', './bench/heap-sample.js');
      const env = {
        HEAP_SAMPLE_DIR: heapDir ?? '',
        HEAP_SAMPLE_SURVIVORS: process.env.HEAP_SAMPLE_SURVIVORS ?? '',
        ...serviceEnv(port, databaseUrl, fakeUrl),
        ASYNC_COUNT_FILE: count?.file ?? '',
        ASYNC_COUNT_HOOK: count?.hook ? 'on' : 'off',
      };
      return startServer(name, argsOf(name, flags), env, port);
    },
  };
}

/** The profiler's own thread: V8's ProfilerEventsProcessor ("v8:ProfEvntProc" in /proc). */
const PROFILER_THREAD = /^v8:Prof/;

/** CPU seconds so far: the main thread, the others by name, the profiler's thread. */
export function cpu(pid: number) {
  const threads = otherThreadsCpuSeconds(pid);
  let profiler = 0;
  for (const [name, s] of threads) {
    if (!PROFILER_THREAD.test(name)) continue;
    profiler += s;
    threads.delete(name);
  }
  return { main: mainThreadCpuSeconds(pid), threads, profiler };
}

export const minus = (a: Map<string, number>, b: Map<string, number>) =>
  new Map([...a].map(([k, v]) => [k, v - (b.get(k) ?? 0)]));

/** A fresh database, migrated by the service's first boot, then the small tables seeded into it. */
export async function migratedAndSeeded(env: Env, url: string): Promise<Seeded> {
  const migrate = await env.start('service');
  try {
    return await seed(url, SMALL);
  } finally {
    await stopServer(migrate);
  }
}
