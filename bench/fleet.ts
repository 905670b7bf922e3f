/**
 * The fleet against its floor (docs/benchmarks.md): two service instances on one PostgreSQL
 * database and one Redis, as a deployment runs them, and two instances of the bare Nest app (its
 * token and heartbeat in bench/reference-fleet.ts) on the same database, take the fleet's request
 * mix (bench/fleet-load.ts) at one fixed rate from the load core, in windows interleaved round by
 * round (service then twin, then twin then service). Each side's CPU per answered request is read
 * from /proc over its windows; `fleet_cpu_ratio` is the twin's divided by the service's.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { exportFleetKey, newFleetKey } from '../dev-fleet/fleet-keys';
import { tokenAudience } from '../dev-fleet/fleet-requests';
import { deviceKeyFrom } from '../src/device/registry/device-key';
import { benchAdminUrl, withBenchEnv } from './bench-env';
import type { FleetDevices, FleetWindow, FleetWindowOutput } from './fleet-load';
import { type FleetResult, type FleetSample, fleetSide } from './fleet-report';
import { pinBackends } from './pg-affinity';
import { cpuSeconds, freePort, LoadWorker, Server, startServer, stopServer } from './procs';
import { referenceArgs } from './reference-build';
import { BENCH_ORG_ID, serviceArgs, serviceEnv } from './service-env';

const INSTANCES = 2;
/** The services' BASE_URL (the default): the assertions' audience. */
const BASE_URL = 'http://localhost:3000';
/** Before each later window: the side's sockets open and its code warm again after the other's. */
const LEAD_IN_SECONDS = 2;

export interface FleetOptions {
  /** The fixed rate the load core sends (a side's instances together). */
  rps: number;
  seconds: number;
  /** The first round's warm-up of each side, at the same rate. */
  warmupSeconds: number;
  rounds: number;
  /** Registered devices with keys the load cycles through. */
  devices: number;
}

/** Devices with keys, set-based (the stored key and thumbprint as the service makes them). */
async function seedKeyedDevices(url: string, n: number): Promise<FleetDevices['devices']> {
  const devices = Array.from({ length: n }, (_, i) => ({
    deviceId: `fleet-${String(i).padStart(6, '0')}`,
    model: 'hub-2',
    provider: 'acme',
    key: newFleetKey('ec'),
  }));
  const stored = await Promise.all(devices.map((d) => deviceKeyFrom(d.key.jwk)));
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await db.query(
      `INSERT INTO organizations (id, name, created_at) VALUES ($1, 'Bench fleet org', now())`,
      [BENCH_ORG_ID],
    );
    await db.query(
      `INSERT INTO devices (org_id, device_id, model, provider, status, public_key, public_key_thumbprint, created_at, updated_at)
       SELECT $1, d.id, 'hub-2', 'acme', 'active', d.jwk, d.jkt, now(), now()
       FROM unnest($2::text[], $3::jsonb[], $4::text[]) AS d(id, jwk, jkt)`,
      [
        BENCH_ORG_ID,
        devices.map((d) => d.deviceId),
        stored.map((k) => JSON.stringify(k.jwk)),
        stored.map((k) => k.thumbprint),
      ],
    );
    await db.query('VACUUM (ANALYZE)');
  } finally {
    await db.end();
  }
  return devices.map((d) => ({ ...d, key: exportFleetKey(d.key) }));
}

/** One measured window of a side: its instances' CPU around the load. */
async function measure(worker: LoadWorker, servers: Server[], window: FleetWindow) {
  const cpu = () => servers.reduce((a, s) => a + cpuSeconds(s.child.pid!), 0);
  const cpu0 = cpu();
  const out = await worker.run<FleetWindow, FleetWindowOutput>(window);
  const used = cpu() - cpu0;
  return { ...out, cpuMsPerRequest: (used * 1000) / out.served };
}

export async function fleetBench(o: FleetOptions): Promise<FleetResult> {
  return withBenchEnv('bench_fleet', async (env) => {
    const started: Server[] = [];
    const dir = mkdtempSync(join(tmpdir(), 'bench-fleet-'));
    try {
      const redisPrefix = `bench-fleet-${randomBytes(4).toString('hex')}:`;
      const boot = async (args: string[]) => {
        const senv = {
          ...serviceEnv(await freePort(), env.url, env.fake.url),
          BASE_URL,
          REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
          REDIS_KEY_PREFIX: redisPrefix,
        };
        const s = await startServer('fleet', args, senv, Number(senv.PORT));
        started.push(s);
        return s;
      };
      // The first boot migrates the fresh database; the devices go in before the others start.
      const service = [await boot(serviceArgs())];
      const devices = await seedKeyedDevices(env.url, o.devices);
      while (service.length < INSTANCES) service.push(await boot(serviceArgs()));
      const twin: Server[] = [];
      while (twin.length < INSTANCES) twin.push(await boot(referenceArgs()));
      const file = join(dir, 'devices.json');
      writeFileSync(file, JSON.stringify({ audience: tokenAudience(BASE_URL), devices }));
      const worker = new LoadWorker(join(__dirname, 'fleet-load.ts'), file);
      const pinner = await pinBackends(benchAdminUrl(), [env.dbName]);
      const samples = { service: [] as FleetSample[], twin: [] as FleetSample[] };
      try {
        for (let round = 0; round < o.rounds; round++) {
          const sides = [['service', service] as const, ['twin', twin] as const];
          for (const [name, servers] of round % 2 === 0 ? sides : sides.reverse()) {
            const urls = servers.map((s) => s.url);
            const lead = round === 0 ? o.warmupSeconds : LEAD_IN_SECONDS;
            await worker.run({ urls, rps: o.rps, seconds: lead });
            const window = { urls, rps: o.rps, seconds: o.seconds };
            const sample = await measure(worker, servers, window);
            samples[name].push(sample);
            console.log(
              `  fleet round ${round + 1} ${name.padEnd(7)} ${sample.answeredPerS.toFixed(0)} answered/s, ` +
                `CPU ${sample.cpuMsPerRequest.toFixed(3)} ms/req`,
            );
          }
        }
      } finally {
        worker.stop();
        await pinner.stop();
      }
      const s = fleetSide(samples.service);
      const t = fleetSide(samples.twin);
      return { instances: INSTANCES, devices: o.devices, options: o, service: s, twin: t };
    } finally {
      for (const s of started) await stopServer(s);
      rmSync(dir, { recursive: true, force: true });
    }
  });
}
