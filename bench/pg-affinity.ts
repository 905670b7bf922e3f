/**
 * The PostgreSQL backends that serve the bench's databases, pinned to the load core. Unpinned, the
 * scheduler puts each backend on either core, and one on the server core takes CPU from the
 * measured server mid-request: a service whose pool happens to run there reads a higher p99 and
 * CPU per request than one whose pool does not, whatever its tables (docs/benchmarks.md, "What
 * is measured"). Pinned, every server's queries run on the same core.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { Client } from 'pg';
import { HAS_TASKSET, LOAD_CPU } from './procs';

const POLL_MS = 100;

/** A local PostgreSQL backend (not a process of a remote server that shares the pid). */
function isLocalBackend(pid: number): boolean {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'utf8').startsWith('postgres');
  } catch {
    return false;
  }
}

export interface BackendPinner {
  stop(): Promise<void>;
}

/**
 * Pins the backends of `databases` to the load core, and every new one (the pools open and close
 * connections between windows) within POLL_MS, until stopped. Does nothing without taskset or
 * where the kernel refuses (another user's processes need CAP_SYS_NICE): the run says so.
 */
export async function pinBackends(adminUrl: string, databases: string[]): Promise<BackendPinner> {
  const done = new Set<number>();
  if (!HAS_TASKSET) return { stop: () => Promise.resolve() };
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  let refused = false;
  const pass = async () => {
    const { rows } = await admin.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = ANY($1) AND pid <> pg_backend_pid()',
      [databases],
    );
    for (const { pid } of rows) {
      if (done.has(pid) || !isLocalBackend(pid)) continue;
      const r = spawnSync('taskset', ['-p', '-c', LOAD_CPU, String(pid)], { stdio: 'ignore' });
      if (r.status === 0) done.add(pid);
      else refused = true;
    }
  };
  await pass();
  if (refused) console.warn('  (PostgreSQL backends could not be pinned: they run on either core)');
  let stopping = false;
  const loop = (async () => {
    while (!stopping) {
      await new Promise((r) => setTimeout(r, POLL_MS));
      if (!stopping) await pass().catch(() => undefined);
    }
  })();
  return {
    stop: async () => {
      stopping = true;
      await loop;
      await admin.end();
    },
  };
}
