/**
 * The phases of the full run (bench/run.ts): PostgreSQL (a small and a large database, a service
 * on each and the bare Nest app on the small one, in the same interleaved rounds; then the query
 * plans and one liveness pass at the large size) and the embedded default (boots, idle memory, the
 * routes).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BenchEnv, benchAdminUrl, withBenchEnv } from './bench-env';
import { livenessBench, livenessPlanMarkdown, livenessSql } from './liveness';
import type { Endpoint } from './load';
import { BENCH_ENDPOINTS } from './load-input';
import { pinBackends } from './pg-affinity';
import { capturePlans, plansMarkdown } from './plans';
import { freePort, LoadWorker, rssMb, Server, startServer, stopServer } from './procs';
import type { Row } from './report';
import { referenceArgs } from './reference-build';
import { Bound, Db, rounds, RoundsOptions } from './rounds';
import { seed, seedEmbedded, SMALL, TableSize } from './seed';
import { serviceArgs, serviceEnv } from './service-env';
import {
  LARGE_SIZE,
  QUICK,
  ROUNDS,
  SECONDS,
  WARMUP_SECONDS,
  CONNECTIONS,
  WARM_BOOTS,
} from './options';

/** Every measured route; the deep page and the heartbeat only on the service. */
export const ENDPOINTS: Endpoint[] = [...BENCH_ENDPOINTS];
/** No CPU ratio is read for these, only their growth (docs/benchmarks.md). */
const SERVICE_ONLY = new Set<Endpoint>(['devicesDeep', 'heartbeat']);

/** The options of every interleaved phase. */
const roundOptions = (worker: LoadWorker): RoundsOptions => ({
  endpoints: ENDPOINTS,
  serviceOnly: SERVICE_ONLY,
  rounds: ROUNDS,
  seconds: SECONDS,
  warmupSeconds: WARMUP_SECONDS,
  connections: CONNECTIONS,
  worker,
});

/** A fresh database of the given size, migrated by the service's first boot, then seeded. */
async function bootAndSeed(size: TableSize, env: BenchEnv, started: Server[]): Promise<Bound> {
  const senv = serviceEnv(await freePort(), env.url, env.fake.url);
  // The service's first boot migrates the fresh database; the rows go in afterwards.
  const server = await startServer('service', serviceArgs(), senv, Number(senv.PORT));
  started.push(server);
  const t0 = performance.now();
  const seeded = await seed(env.url, size);
  console.log(
    `${size.name} tables seeded into ${env.dbName} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  return { server, db: { phase: size.name, seeded, fake: env.fake, next: { subscription: 0 } } };
}

/**
 * At the large size, once the measured servers have stopped: the query plans (full run only),
 * then one liveness pass, last because it moves 1 % of the devices past their deadline.
 */
async function plansAndLiveness(env: BenchEnv, db: Db, worker: LoadWorker) {
  let plans = '';
  if (!QUICK) {
    console.log('query plans at the large size...');
    const routes = await capturePlans(env.url, env.fake.url, db.seeded, ENDPOINTS, db.next, worker);
    plans = plansMarkdown(routes, db.seeded, new Date().toISOString());
  }
  console.log('one liveness pass at the large size...');
  const liveness = await livenessBench(env.url, env.fake.url);
  console.log(`  ${liveness.offline} offline in ${liveness.passMs} ms`);
  if (plans) {
    const section = livenessPlanMarkdown(liveness, new Date().toISOString(), livenessSql().sql);
    plans = `${plans.trimEnd()}\n\n${section}`;
  }
  return { plans, liveness };
}

/**
 * PostgreSQL: a small and a large database, a service process on each, the bare Nest app on the
 * small one; every round takes the two services' windows next to each other, so the growth from
 * small to large is read under the same machine conditions.
 */
export async function postgresPhase(worker: LoadWorker) {
  return withBenchEnv('bench_small', (smallEnv) =>
    withBenchEnv('bench_large', async (largeEnv) => {
      const started: Server[] = [];
      try {
        const small = await bootAndSeed(SMALL, smallEnv, started);
        const large = await bootAndSeed(LARGE_SIZE, largeEnv, started);
        const port = await freePort();
        const env = serviceEnv(port, smallEnv.url, smallEnv.fake.url);
        const bare = await startServer('bare-nest', referenceArgs(), env, port);
        started.push(bare);
        const bareNest: Bound = { server: bare, db: small.db };
        // Every server's queries on the load core, so none shares its core with its database.
        const pinner = await pinBackends(benchAdminUrl(), [smallEnv.dbName, largeEnv.dbName]);
        // The yardstick next to the small service, the small service next to the large one.
        const result = await rounds([bareNest, small, large], roundOptions(worker)).finally(() =>
          pinner.stop(),
        );
        for (const s of started.splice(0)) await stopServer(s);
        const { plans, liveness } = await plansAndLiveness(largeEnv, large.db, worker);
        return { ...result, plans, liveness };
      } finally {
        for (const s of started) await stopServer(s);
      }
    }),
  );
}

/**
 * The embedded default: a cold boot (migrations), the small tables written into the closed data
 * directory, warm boots (unpinned, as in production), idle memory, then the routes (full run).
 */
export async function embeddedPhase(worker: LoadWorker) {
  return withBenchEnv('bench_embedded', async ({ fake }) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'bench-embedded-'));
    try {
      const env = serviceEnv(await freePort(), undefined, fake.url, dataDir);
      const port = Number(env.PORT);
      const boot = async (pin: boolean) => startServer('service', serviceArgs(), env, port, pin);
      const cold = await boot(false);
      await stopServer(cold);
      const seeded = await seedEmbedded(dataDir, SMALL);
      const warm: number[] = [];
      for (let i = 0; i < WARM_BOOTS; i++) {
        const s = await boot(false);
        warm.push(s.bootMs / 1000);
        await stopServer(s);
      }
      const server = await boot(true);
      let rows: Row[] = [];
      let idleRss: number;
      try {
        // Idle: booted, a health probe answered, then nothing for a few seconds.
        await new Promise((r) => setTimeout(r, 3000));
        idleRss = rssMb(server.child.pid!);
        console.log(
          `embedded: cold boot ${(cold.bootMs / 1000).toFixed(2)} s, warm ${warm.map((w) => w.toFixed(2)).join(' ')} s, idle RSS ${idleRss.toFixed(0)} MB`,
        );
        if (!QUICK) {
          const db: Db = { phase: 'embedded', seeded, fake, next: { subscription: 0 } };
          ({ rows } = await rounds([{ server, db }], roundOptions(worker)));
        }
      } finally {
        await stopServer(server);
      }
      return { coldS: cold.bootMs / 1000, warm, idleRss, rows };
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
}
