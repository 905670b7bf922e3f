/**
 * Devices per core (issue 38, docs/benchmarks.md): two service instances on one PostgreSQL
 * database and one Redis, as a deployment runs them, take the fleet's request mix
 * (bench/fleet-load.ts: a token per 15 minutes, a heartbeat per 5, per device) at a fixed rate from
 * the load core. The services' CPU and the PostgreSQL backends' CPU are read from /proc over the
 * measured window, apart; devices per core = (requests per second / (1/900 + 1/300)) / (service
 * CPU seconds per second).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { exportFleetKey, newFleetKey } from '../dev-fleet/fleet-keys';
import { tokenAudience } from '../dev-fleet/fleet-requests';
import { deviceKeyFrom } from '../src/device/registry/device-key';
import { benchAdminUrl, withBenchEnv } from './bench-env';
import type { FleetLoadInput, FleetLoadOutput, KindResult } from './fleet-load';
import { pinBackends } from './pg-affinity';
import { cpuSeconds, freePort, pinned, LOAD_CPU, Server, startServer, stopServer } from './procs';
import { BENCH_ORG_ID, serviceArgs, serviceEnv } from './service-env';

/** Requests per device per second: a token every 15 minutes and a heartbeat every 5. */
export const REQUESTS_PER_DEVICE_PER_S = 1 / 900 + 1 / 300;
const INSTANCES = 2;
/** The services' BASE_URL (the default): the assertions' audience. */
const BASE_URL = 'http://localhost:3000';

export interface FleetOptions {
  /** The fixed rate the load core sends (all instances together). */
  rps: number;
  seconds: number;
  warmupSeconds: number;
  /** Registered devices with keys the load cycles through. */
  devices: number;
}

export interface FleetResult {
  instances: number;
  devices: number;
  rpsAsked: number;
  /** Sent per second in the window (the asked rate, if the load core kept up). */
  rpsSent: number;
  /** Successful answers per second over the window and its tail: what the CPU paid for. */
  rps: number;
  seconds: number;
  /** The fleet the rate stands for: rps / (1/900 + 1/300). */
  simulatedDevices: number;
  /** CPU seconds per second of the service instances together, and of the PostgreSQL backends. */
  serviceCores: number;
  databaseCores: number;
  devicesPerCore: number;
  devicesPerDatabaseCore: number;
  token: KindResult;
  heartbeat: KindResult;
}

/** Devices with keys, set-based (the stored key and thumbprint as the service makes them). */
async function seedKeyedDevices(db: Client, n: number) {
  const devices = Array.from({ length: n }, (_, i) => ({
    deviceId: `fleet-${String(i).padStart(6, '0')}`,
    model: 'hub-2',
    provider: 'acme',
    key: newFleetKey('ec'),
  }));
  const stored = await Promise.all(devices.map((d) => deviceKeyFrom(d.key.jwk)));
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
  return devices.map((d) => ({ ...d, key: exportFleetKey(d.key) }));
}

/** The PostgreSQL backends of `dbName` and their CPU seconds so far (local server only). */
async function backendCpu(admin: Client, dbName: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>(
    'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [dbName],
  );
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    try {
      out.set(pid, cpuSeconds(pid));
    } catch {
      // gone since the query, or not a local process
    }
  }
  return out;
}

/** CPU used between two readings; a backend born in between counts from zero. */
const cpuBetween = (before: Map<number, number>, after: Map<number, number>) =>
  [...after].reduce((sum, [pid, cpu]) => sum + cpu - (before.get(pid) ?? 0), 0);

/** Runs the load child on the load core; `onMeasure` when its measured window starts. */
function runLoad(input: FleetLoadInput, onMeasure: () => Promise<void>): Promise<FleetLoadOutput> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-fleet-'));
  const file = join(dir, 'input.json');
  writeFileSync(file, JSON.stringify(input));
  const script = join(__dirname, 'fleet-load.ts');
  const [command, argv] = pinned(LOAD_CPU, process.execPath, [
    '-r',
    'ts-node/register/transpile-only',
    script,
    file,
  ]);
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ['ignore', 'pipe', 'inherit'] });
    let buffered = '';
    let measured = Promise.resolve();
    child.stdout.on('data', (c: Buffer) => {
      buffered += c.toString();
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = JSON.parse(buffered.slice(0, nl)) as { phase?: string } & FleetLoadOutput;
        buffered = buffered.slice(nl + 1);
        if (line.phase === 'measure') measured = onMeasure();
        else void measured.then(() => resolve(line));
      }
    });
    child.on('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      if (code !== 0) reject(new Error(`fleet load exited ${code}`));
    });
  });
}

export async function fleetBench(o: FleetOptions): Promise<FleetResult> {
  return withBenchEnv('bench_fleet', async (env) => {
    const started: Server[] = [];
    const admin = new Client({ connectionString: benchAdminUrl() });
    await admin.connect();
    try {
      const redisPrefix = `bench-fleet-${randomBytes(4).toString('hex')}:`;
      const boot = async () => {
        const senv = {
          ...serviceEnv(await freePort(), env.url, env.fake.url),
          REDIS_URL: process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379',
          REDIS_KEY_PREFIX: redisPrefix,
        };
        const s = await startServer('service', serviceArgs(), senv, Number(senv.PORT));
        started.push(s);
        return s;
      };
      // The first boot migrates the fresh database; the devices go in before the second starts.
      await boot();
      const db = new Client({ connectionString: env.url });
      await db.connect();
      const devices = await seedKeyedDevices(db, o.devices).finally(() => db.end());
      for (let i = 1; i < INSTANCES; i++) await boot();
      const pinner = await pinBackends(benchAdminUrl(), [env.dbName]);
      const pids = started.map((s) => s.child.pid!);
      let before = { service: 0, db: new Map<number, number>(), at: 0 };
      const input: FleetLoadInput = {
        urls: started.map((s) => s.url),
        audience: tokenAudience(BASE_URL),
        devices,
        rps: o.rps,
        warmupSeconds: o.warmupSeconds,
        seconds: o.seconds,
      };
      const out = await runLoad(input, async () => {
        before = {
          service: pids.reduce((a, p) => a + cpuSeconds(p), 0),
          db: await backendCpu(admin, env.dbName),
          at: performance.now(),
        };
      }).finally(() => pinner.stop());
      // Read at once: the load's last second of stragglers is inside `out.seconds` + 1 s.
      const service = pids.reduce((a, p) => a + cpuSeconds(p), 0) - before.service;
      const database = cpuBetween(before.db, await backendCpu(admin, env.dbName));
      const wall = (performance.now() - before.at) / 1000;
      const serviceCores = service / wall;
      const databaseCores = database / wall;
      const rps = out.served / out.servedSeconds;
      const simulatedDevices = rps / REQUESTS_PER_DEVICE_PER_S;
      return {
        instances: INSTANCES,
        devices: o.devices,
        rpsAsked: o.rps,
        rpsSent: out.rps,
        rps,
        seconds: out.seconds,
        simulatedDevices,
        serviceCores,
        databaseCores,
        devicesPerCore: simulatedDevices / serviceCores,
        devicesPerDatabaseCore: simulatedDevices / databaseCores,
        token: out.token,
        heartbeat: out.heartbeat,
      };
    } finally {
      for (const s of started) await stopServer(s);
      await admin.end();
    }
  });
}

/** The figures as lines of the results page. */
export function fleetMarkdown(r: FleetResult): string[] {
  const f = (n: number, d = 0) => (Number.isFinite(n) ? n.toFixed(d) : '-');
  return [
    '## Devices per core (two instances on PostgreSQL + Redis)',
    '',
    `${r.instances} service instances on one database and one Redis took the fleet's mix (a token per ` +
      `15 minutes, a heartbeat per 5, per device; tokens with signed ES256 assertions of ${r.devices} ` +
      `registered keys) at ${f(r.rpsAsked)} requests/s asked, ${f(r.rpsSent)} sent, ${f(r.rps)} answered ` +
      `(2xx, over the ${f(r.seconds, 1)} s window and a second's tail): the traffic of ${f(r.simulatedDevices)} devices. ` +
      'If the answered rate is below the asked one the services were saturated: lower BENCH_FLEET_RPS.',
    '',
    '| figure | value |',
    '| --- | ---: |',
    `| service CPU (cores, both instances) | ${f(r.serviceCores, 3)} |`,
    `| PostgreSQL backends' CPU (cores) | ${f(r.databaseCores, 3)} |`,
    `| devices per service core | ${f(r.devicesPerCore)} |`,
    `| devices per database core | ${f(r.devicesPerDatabaseCore)} |`,
    `| token p50 / p99 ms (${r.token.requests}, failed ${r.token.failed} ${JSON.stringify(r.token.failedBy)}) | ${f(r.token.p50, 1)} / ${f(r.token.p99, 1)} |`,
    `| heartbeat p50 / p99 ms (${r.heartbeat.requests}, failed ${r.heartbeat.failed} ${JSON.stringify(r.heartbeat.failedBy)}) | ${f(r.heartbeat.p50, 1)} / ${f(r.heartbeat.p99, 1)} |`,
    '',
  ];
}
