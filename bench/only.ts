import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withBenchEnv } from './bench-env';
import { fleetBench, fleetMarkdown, FleetOptions, FleetResult } from './fleet';
import {
  livenessBench,
  livenessPlanMarkdown,
  LivenessResult,
  livenessSql,
  withLivenessPlan,
} from './liveness';
import { freePort, startServer, stopServer } from './procs';
import { LARGE, seedDevicesOnly } from './seed';
import { serviceArgs, serviceEnv } from './service-env';

/**
 * `--only fleet,liveness`: only the issue-38 phases, on their own databases (the liveness pass on
 * one of LARGE's device count, devices only), printed and written to results/quick/; the liveness
 * plan goes into bench/plans.md's liveness section. Not a run of the targets: the full bench is.
 */
export async function onlyPhases(only: string[], fleet: FleetOptions): Promise<void> {
  const out: { fleet?: FleetResult; liveness?: LivenessResult } = {};
  if (only.includes('fleet')) {
    console.log(`fleet: ${fleet.rps} requests/s on two instances (PostgreSQL + Redis)...`);
    out.fleet = await fleetBench(fleet);
    console.log(fleetMarkdown(out.fleet).join('\n'));
  }
  if (only.includes('liveness')) {
    out.liveness = await withBenchEnv('bench_liveness', async (env) => {
      const senv = serviceEnv(await freePort(), env.url, env.fake.url);
      await stopServer(await startServer('service', serviceArgs(), senv, Number(senv.PORT)));
      const t0 = performance.now();
      await seedDevicesOnly(env.url, LARGE);
      console.log(
        `${LARGE.orgDevices + LARGE.otherDevices} devices seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      );
      return livenessBench(env.url, env.fake.url);
    });
    const { liveness } = out;
    console.log(
      `liveness: ${liveness.crossing} of ${liveness.devices} crossing; pass ${liveness.passMs} ms, ` +
        `${liveness.offline} offline in ${liveness.batches} batches; index only: ${liveness.indexOnly}`,
    );
    console.log(liveness.plan);
    if (!Number.isFinite(liveness.passMs)) console.log(`CLI said: ${liveness.cliOutput}`);
    const file = join(__dirname, 'plans.md');
    const section = livenessPlanMarkdown(liveness, new Date().toISOString(), livenessSql().sql);
    writeFileSync(file, withLivenessPlan(readFileSync(file, 'utf8'), section));
  }
  const dir = join(__dirname, 'results', 'quick');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:]/g, '-').replace(/\..*$/, '');
  writeFileSync(join(dir, `only-${stamp}.json`), `${JSON.stringify(out, null, 2)}\n`);
}
