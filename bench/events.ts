/**
 * Outgoing webhooks under load (docs/benchmarks.md), on PostgreSQL: events delivered per second by one
 * instance to a local receiver that answers at once, the lag from commit to first attempt with no
 * backlog and with 10 000 queued, and the p99 of GET /api/v1/devices with and without deliveries
 * hanging on a receiver that never answers, interleaved in one run. bench/run.ts calls
 * `eventsBench` in its small PostgreSQL phase; `npm run bench:events` runs it alone.
 */
import { execSync, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { wrap } from '../src/personal-data/personal-data.crypto';
import { newWebhookSecret } from '../src/outgoing-webhook/endpoints/outgoing-webhook-secrets';
import type { LoadInput, LoadOutput } from './load';
import { loadInput } from './load-input';
import { cpuSeconds, freePort, LoadWorker, startServer, stopServer } from './procs';
import { BENCH_MASTER_KEY, serviceArgs, serviceEnv } from './service-env';
import { lagsSince, pct, Receiver, registerDevices, sleep, waitFor } from './events-receiver';
import { eventsMarkdown, type EventsResult } from './events-report';
import { withBenchEnv } from './bench-env';
import { seed, type Seeded, SMALL } from './seed';

export interface EventsOptions {
  rounds: number;
  seconds: number;
  connections: number;
  /** Deliveries queued at once for the backlog step (the quick check queues a tenth). */
  queued?: number;
}

const QUEUED = 10_000;
const HANGING = 50;

const INSERT_ENDPOINT = `INSERT INTO webhook_endpoints (org_id, url, event_types, enabled, secret_encrypted, created_at)
  VALUES ($1, $2, $3, true, $4, now()) RETURNING id`;
/** `n` events and their deliveries to one endpoint, set-based, as the outbox would write them. */
const QUEUE_SQL = `WITH ev AS (
    INSERT INTO outgoing_events (id, type, org_id, payload, created_at, settled_at)
    SELECT gen_random_uuid(), $2::varchar, $1::uuid, json_build_object('type', $2::text,
      'timestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
      'data', json_build_object('device_id', 'queued-' || i, 'org_id', $1::uuid))::text, now(), NULL
    FROM generate_series(1, $3) AS i RETURNING id)
  INSERT INTO webhook_deliveries (event_id, endpoint_id, status, attempts, next_attempt_at, manual, created_at)
  SELECT id, $4, 'pending', 0, now(), false, now() FROM ev`;

export async function eventsBench(
  databaseUrl: string,
  fakeUrl: string,
  seeded: Seeded,
  worker: LoadWorker,
  o: EventsOptions,
): Promise<EventsResult> {
  const quick = new Receiver(false);
  const hang = new Receiver(true);
  await Promise.all([quick.start(), hang.start()]);
  const db = new Client({ connectionString: databaseUrl });
  await db.connect();
  const env = {
    ...serviceEnv(await freePort(), databaseUrl, fakeUrl),
    // The receivers are on 127.0.0.1, over http.
    OUTGOING_WEBHOOK_ALLOW_PRIVATE: 'true',
    // Longer than any window: the hanging attempts stay open through it.
    OUTGOING_WEBHOOK_TIMEOUT_SECONDS: '60',
  };
  const server = await startServer('service', serviceArgs(), env, Number(env.PORT));
  try {
    const add = async (url: string, types: string[]) =>
      (
        await db.query<{ id: string }>(INSERT_ENDPOINT, [
          seeded.orgId,
          url,
          types,
          wrap(BENCH_MASTER_KEY, Buffer.from(newWebhookSecret())),
        ])
      ).rows[0].id;
    const quickId = await add(quick.url, ['device.registered']);
    const hangId = await add(hang.url, ['device.key_rotated']);

    // 1. No backlog: events committed by the API at a steady rate, each woken at its commit.
    const idleCount = 500;
    const idlePerS = 50;
    const refused = new Map<number, number>();
    const t1 = Date.now();
    const created = await registerDevices(server.url, seeded, 'idle', idleCount, idlePerS, refused);
    await waitFor('the idle events', () => quick.firstAt.size >= created);
    const idleLags = lagsSince(quick, new Set());
    const idle = {
      events: created,
      offeredPerS: idlePerS,
      perS: created / ((Math.max(...quick.firstAt.values()) - t1) / 1000),
      lagP50: pct(idleLags, 50),
      lagP99: pct(idleLags, 99),
    };
    console.log(`events: no backlog ${JSON.stringify(idle)}`);

    // 2. 10 000 queued at once (found by the poll), with API events committed behind them.
    const queued = o.queued ?? QUEUED;
    const before = new Set(quick.firstAt.keys());
    const cpu0 = cpuSeconds(server.child.pid!);
    await db.query(QUEUE_SQL, [seeded.orgId, 'device.registered', queued, quickId]);
    const queuedAt = Date.now();
    const behind = await registerDevices(server.url, seeded, 'backlog', 100, 20, refused);
    const target = before.size + queued + behind;
    await waitFor('the backlog drained', () => quick.firstAt.size >= target);
    const drainS = (Math.max(...quick.firstAt.values()) - queuedAt) / 1000;
    const cpuMs = (cpuSeconds(server.child.pid!) - cpu0) * 1000;
    const fresh = [...quick.firstAt.keys()].filter((id) => !before.has(id));
    // The queued ones carry the insert's time, before `queuedAt`; the API's came after it.
    const isApi = (id: string) => (quick.changedAt.get(id) ?? 0) > queuedAt;
    const queuedLags = fresh
      .filter((id) => !isApi(id))
      .map((id) => quick.firstAt.get(id)! - queuedAt);
    const apiOnly = fresh
      .filter(isApi)
      .map((id) => quick.firstAt.get(id)! - quick.changedAt.get(id)!);
    const backlog = {
      queued,
      drainS,
      perS: fresh.length / drainS,
      cpuMsPerEvent: cpuMs / fresh.length,
      lagP50: pct(queuedLags, 50),
      lagP99: pct(queuedLags, 99),
      apiEvents: apiOnly.length,
      apiLagP50: pct(apiOnly, 50),
      apiLagP99: pct(apiOnly, 99),
    };
    console.log(`events: ${queued} queued ${JSON.stringify(backlog)}`);

    // 3. The device list under load, without and with deliveries hanging, rounds interleaved.
    const hanging = {
      deliveries: HANGING,
      inFlight: 0,
      withoutP99: [] as number[],
      withP99: [] as number[],
      withoutCpuMs: [] as number[],
      withCpuMs: [] as number[],
      besideLags: [] as number[],
    };
    const window = async () => {
      const input: LoadInput = loadInput(server.url, 'devices', seeded, {
        seconds: o.seconds,
        connections: o.connections,
        subscriptionStart: 0,
      });
      const c0 = cpuSeconds(server.child.pid!);
      const out = await worker.run<LoadInput, LoadOutput>(input);
      return {
        p99: out.p99,
        cpuMs: ((cpuSeconds(server.child.pid!) - c0) * 1000) / Math.max(1, out.requests),
      };
    };
    let besideRound = 0;
    const hangingWindow = async () => {
      await db.query('UPDATE webhook_endpoints SET enabled = true WHERE id = $1', [hangId]);
      await db.query(QUEUE_SQL, [seeded.orgId, 'device.key_rotated', HANGING, hangId]);
      // The per-endpoint cap (4) holds the attempts open at once; the rest wait their turn.
      await waitFor('attempts hanging', () => hang.open >= 4, 60_000);
      await sleep(500);
      hanging.inFlight = hang.open;
      // Another endpoint's events meanwhile: sent at once, not after the hanging ones' timeout.
      const seen = new Set(quick.firstAt.keys());
      const beside = await registerDevices(
        server.url,
        seeded,
        `beside-${++besideRound}`,
        10,
        10,
        refused,
      );
      await waitFor(
        'events beside the hanging ones',
        () => quick.firstAt.size >= seen.size + beside,
        // Past the hanging attempts' 60 s timeout: without the cap they wait that long.
        120_000,
      );
      hanging.besideLags.push(...lagsSince(quick, seen));
      const measured = await window();
      // Cleared for the next window: disabled, what waited is failed, the open ones cut.
      await db.query('UPDATE webhook_endpoints SET enabled = false WHERE id = $1', [hangId]);
      await db.query(
        `UPDATE webhook_deliveries SET status = 'failed' WHERE endpoint_id = $1 AND claim_token IS NULL`,
        [hangId],
      );
      hang.cut();
      const pending = async () =>
        (
          await db.query<{ n: string }>(
            `SELECT count(*) AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND status = 'pending'`,
            [hangId],
          )
        ).rows[0].n;
      await waitFor(
        'hanging attempts over',
        async () => hang.open === 0 && (await pending()) === '0',
        60_000,
      );
      return measured;
    };
    await window(); // warm-up
    for (let round = 0; round < o.rounds; round++) {
      // The order alternates, as in run.ts, so neither side always goes first.
      const first = round % 2 === 0;
      const without = first ? await window() : undefined;
      const withHanging = await hangingWindow();
      const without2 = without ?? (await window());
      hanging.withoutP99.push(without2.p99);
      hanging.withP99.push(withHanging.p99);
      hanging.withoutCpuMs.push(without2.cpuMs);
      hanging.withCpuMs.push(withHanging.cpuMs);
      console.log(
        `events: round ${round + 1} devices p99 without ${without2.p99} ms, with ${hanging.inFlight} hanging ${withHanging.p99} ms`,
      );
    }
    const apiRefused = [...refused].map(([status, n]) => `${n} x ${status}`).join(', ') || 'none';
    return { uptime: execSync('uptime').toString().trim(), apiRefused, idle, backlog, hanging };
  } finally {
    await stopServer(server);
    await db.end();
    await Promise.all([quick.stop(), hang.stop()]);
  }
}

/**
 * `npm run bench:events [-- --no-build]`: this part alone, on a fresh database with the small
 * tables (fewer pending subscriptions: nothing here pays one). Prints its section of the report.
 */
async function main(): Promise<void> {
  process.chdir(join(__dirname, '..'));
  if (!process.argv.includes('--no-build')) {
    const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  const worker = new LoadWorker(join(__dirname, 'load.ts'));
  try {
    const result = await withBenchEnv('bench_events', async ({ url, fake }) => {
      // The first boot migrates the fresh database; the rows go in afterwards.
      const env = serviceEnv(await freePort(), url, fake.url);
      await stopServer(await startServer('service', serviceArgs(), env, Number(env.PORT)));
      const seeded = await seed(url, { ...SMALL, subscriptions: 1000 });
      return eventsBench(url, fake.url, seeded, worker, {
        rounds: Number(process.env.BENCH_ROUNDS ?? 3),
        seconds: Number(process.env.BENCH_SECONDS ?? 5),
        connections: Number(process.env.BENCH_CONNECTIONS ?? 20),
      });
    });
    console.log(`\n${eventsMarkdown(result).join('\n')}`);
  } finally {
    worker.stop();
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
