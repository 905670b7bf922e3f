import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { withBenchEnv } from './bench-env';
import { consoleBench, ConsoleResult, consoleTargets } from './console';
import { fleetBench, FleetOptions } from './fleet';
import { fleetMarkdown, FleetResult } from './fleet-report';
import {
  livenessBench,
  livenessPlanMarkdown,
  LivenessResult,
  livenessSql,
  withLivenessPlan,
} from './liveness';
import { freePort, startServer, stopServer } from './procs';
import { fleetTargets, machineLines, targetsTable } from './report';
import { LARGE, seedDevicesOnly } from './seed';
import { serviceArgs, serviceEnv } from './service-env';

/**
 * One liveness pass on a database of LARGE's devices only: besides the devices the pass reads only
 * the organizations' thresholds and their webhook endpoints, of which this database has none.
 */
async function livenessOnly(): Promise<LivenessResult> {
  const liveness = await withBenchEnv('bench_liveness', async (env) => {
    const senv = serviceEnv(await freePort(), env.url, env.fake.url);
    await stopServer(await startServer('service', serviceArgs(), senv, Number(senv.PORT)));
    const t0 = performance.now();
    await seedDevicesOnly(env.url, LARGE);
    console.log(
      `${LARGE.orgDevices + LARGE.otherDevices} devices seeded in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
    );
    return livenessBench(env.url, env.fake.url);
  });
  console.log(
    `liveness: ${liveness.crossing} of ${liveness.devices} crossing; pass ${liveness.passMs} ms, ` +
      `${liveness.offline} offline in ${liveness.batches} batches; index only: ${liveness.indexOnly}`,
  );
  console.log(liveness.plan);
  if (!Number.isFinite(liveness.passMs)) console.log(`CLI said: ${liveness.cliOutput}`);
  const file = join(__dirname, 'plans.md');
  const section = livenessPlanMarkdown(liveness, new Date().toISOString(), livenessSql().sql);
  writeFileSync(file, withLivenessPlan(readFileSync(file, 'utf8'), section));
  return liveness;
}

/**
 * `--only fleet,liveness,console`: only those phases, on databases of their own, written to results/quick/
 * (the liveness plan into bench/plans.md's liveness section); answers the page's head: the
 * machine and the targets of what ran. A check, not a run of every target: the full bench is.
 */
export async function onlyPhases(
  only: string[],
  o: FleetOptions,
  load0: number[],
): Promise<string> {
  const out: { fleet?: FleetResult; liveness?: LivenessResult; console?: ConsoleResult } = {};
  if (only.includes('fleet')) {
    console.log(`fleet: ${o.rps} requests/s on two instances of each side...`);
    out.fleet = await fleetBench(o);
  }
  if (only.includes('liveness')) out.liveness = await livenessOnly();
  if (only.includes('console')) out.console = await consoleBench();
  const dir = join(__dirname, 'results', 'quick');
  mkdirSync(dir, { recursive: true });
  const stamp = new Date().toISOString().replace(/[:]/g, '-').replace(/\..*$/, '');
  writeFileSync(join(dir, `only-${stamp}.json`), `${JSON.stringify(out, null, 2)}\n`);
  return [
    ...machineLines(load0, loadavg()),
    '',
    ...targetsTable([...fleetTargets(out.fleet, out.liveness), ...consoleTargets(out.console)]),
    '',
    ...(out.fleet ? fleetMarkdown(out.fleet) : []),
  ].join('\n');
}
