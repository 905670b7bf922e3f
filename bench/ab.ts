/**
 * `BENCH_A_ROOT=<another checkout, built> npm run bench:ab [-- health me webhook]`: two builds of
 * the service side by side on one PostgreSQL database (small tables), rounds interleaved (A then B,
 * then B then A), CPU milliseconds per request of each server process, medians. On a busy machine
 * two `npm run bench` runs minutes apart drift more than a change moves; interleaving cancels most
 * of that. B is this checkout's dist/, or BENCH_B_ROOT's. Each build starts as its own
 * package.json's `start:prod` says (its variables and node flags), so a change of flags is measured
 * by changing `start:prod` on one side.
 */
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { benchAdminUrl, withBenchEnv } from './bench-env';
import type { Endpoint } from './load';
import { runWindow } from './load-input';
import { pinBackends } from './pg-affinity';
import { cpuSeconds, freePort, LoadWorker, Server, startServer, stopServer } from './procs';
import { seed, Seeded, SMALL } from './seed';
import { median } from './stats';
import { productionCommand, serviceEnv } from './service-env';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const CONNECTIONS = 20;
const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');

/**
 * `BENCH_A_ENV` / `BENCH_B_ENV` ("NAME=value NAME=value"): settings for one side only, so a
 * feature the configuration switches (LOG_LEVEL=warn drops the access lines) is priced on one build.
 */
function sideEnv(side: string): Record<string, string> {
  const words = (process.env[`BENCH_${side}_ENV`] ?? '').split(/\s+/).filter(Boolean);
  return Object.fromEntries(
    words.map((w) => {
      const at = w.indexOf('=');
      if (at < 1) throw new Error(`BENCH_${side}_ENV: "${w}" is not NAME=value`);
      return [w.slice(0, at), w.slice(at + 1)];
    }),
  );
}

async function main(): Promise<void> {
  const aRoot = process.env.BENCH_A_ROOT;
  const bRoot = process.env.BENCH_B_ROOT ?? join(__dirname, '..');
  if (!aRoot) throw new Error('set BENCH_A_ROOT to the other build (a checkout with dist/)');
  const args = process.argv.slice(2).filter((a) => !a.startsWith('-')) as Endpoint[];
  const endpoints: Endpoint[] = args.length > 0 ? args : ['health', 'me', 'webhook'];
  const worker = new LoadWorker(join(__dirname, 'load.ts'));
  console.log(`A ${aRoot}, B ${bRoot}; load average at start ${load(loadavg())}`);
  try {
    await withBenchEnv('bench_ab', async ({ url, fake, dbName }) => {
      const servers: Server[] = [];
      // As the full bench: the database's backends on the load core, none on a server's.
      const pinner = await pinBackends(benchAdminUrl(), [dbName]);
      try {
        let seeded: Seeded | undefined;
        for (const [name, root] of [
          ['A', aRoot],
          ['B', bRoot],
        ]) {
          const env = {
            ...serviceEnv(await freePort(), url, fake.url, undefined, root),
            ...sideEnv(name),
          };
          const prod = productionCommand(root);
          const argv = [...prod.args, join(root, 'dist/main.js')];
          const vars = { ...prod.env, ...sideEnv(name) };
          console.log(`${name}: ${JSON.stringify(vars)} ${argv.join(' ')}`);
          servers.push(await startServer(name, argv, env, Number(env.PORT)));
          // A's first boot migrated the fresh database; the rows go in afterwards.
          seeded ??= await seed(url, SMALL);
        }
        const cpu: Record<string, number[]> = {};
        const next = { subscription: 0 };
        for (let round = 0; round < ROUNDS; round++) {
          for (const endpoint of endpoints) {
            for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
              fake.reset();
              const seconds = round === 0 ? SECONDS + 1 : SECONDS;
              const pid = server.child.pid!;
              const before = cpuSeconds(pid);
              const out = await runWindow(worker, server.url, endpoint, seeded!, next, {
                seconds,
                connections: CONNECTIONS,
              });
              if (round === 0) continue; // warm-up
              const ms = ((cpuSeconds(pid) - before) * 1000) / Math.max(1, out.requests);
              (cpu[`${endpoint} ${server.name}`] ??= []).push(ms);
              console.log(
                `  round ${round} ${endpoint.padEnd(8)} ${server.name} ${out.rps.toFixed(0).padStart(5)} req/s ` +
                  `CPU ${ms.toFixed(3)} ms/req non-2xx ${out.non2xx + out.errors}`,
              );
            }
          }
        }
        console.log('\n| endpoint | A CPU ms/req (median) | B CPU ms/req (median) | B / A |');
        console.log('| --- | ---: | ---: | ---: |');
        for (const endpoint of endpoints) {
          const a = median(cpu[`${endpoint} A`]);
          const b = median(cpu[`${endpoint} B`]);
          console.log(
            `| ${endpoint} | ${a.toFixed(3)} | ${b.toFixed(3)} | ${(b / a).toFixed(2)} |`,
          );
        }
      } finally {
        await pinner.stop();
        for (const s of servers) await stopServer(s);
      }
    });
  } finally {
    worker.stop();
  }
  console.log(`load average at end ${load(loadavg())}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
