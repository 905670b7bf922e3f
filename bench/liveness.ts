/**
 * One liveness pass at fleet size (docs/benchmarks.md): of the database's devices (1 M at the
 * large size, all reporting), 1 % are moved past their deadline, then the plan of one batch of the
 * pass (LIVENESS_PASS_SQL: the devices marked and their events stored) is captured under EXPLAIN
 * (ANALYZE, BUFFERS) in a rolled-back transaction, and one pass runs as an operator would run it,
 * `cli device:liveness` on the built service, which prints `{"offline":N,"batches":B,"ms":T}`.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Client } from 'pg';
import { serviceEnv } from './service-env';
import { LIVENESS_BATCH } from '../src/device/liveness/device-liveness.service';
import { LIVENESS_PASS_SQL } from '../src/device/liveness/device-liveness.sql';
import { eachRowParams } from '../src/outgoing-webhook/outbox/event-outbox.sql';

/** The share of devices past their deadline when the pass runs. */
export const CROSSING_SHARE = 0.01;
/** The pass's own statement and batch, as the service runs them. */
export function livenessSql(): { sql: string; batch: number; source: string } {
  return {
    sql: LIVENESS_PASS_SQL,
    batch: LIVENESS_BATCH,
    source: 'src/device/liveness/device-liveness.sql.ts',
  };
}

export interface LivenessResult {
  devices: number;
  crossing: number;
  /** The pass's own figures (NaN where the CLI has no device:liveness yet). */
  passMs: number;
  offline: number;
  batches: number;
  cliOutput: string;
  plan: string;
  planSource: string;
  /** The plan reads the devices only through the index (no Seq Scan of them). */
  indexOnly: boolean;
}

/** Moves `share` of the active devices (a random spread: by their uuid) past their deadline. */
async function makeCrossing(
  db: Client,
  share: number,
): Promise<{ devices: number; crossing: number }> {
  const { rows } = await db.query<{ n: string }>(`SELECT count(*) AS n FROM devices`);
  const devices = Number(rows[0].n);
  const crossing = Math.round(devices * share);
  // Devices the rounds' heartbeats stamped (a threshold ahead) could be due by now: a day ahead
  // again, found through the pass's own index, so exactly `crossing` are due.
  await db.query(
    `UPDATE devices SET offline_after = now() + interval '1 day'
     WHERE offline_since IS NULL AND status = 'active' AND offline_after IS NOT NULL
       AND offline_after <= now() + interval '1 hour'`,
  );
  await db.query(
    `UPDATE devices d SET last_seen_at = now() - interval '20 minutes', offline_after = now() - interval '5 minutes'
     FROM (SELECT id FROM devices WHERE status = 'active' ORDER BY id LIMIT $1) p WHERE d.id = p.id`,
    [crossing],
  );
  await db.query('VACUUM (ANALYZE) devices');
  return { devices, crossing };
}

async function explain(db: Client, sql: string, batch: number): Promise<string> {
  await db.query('BEGIN');
  try {
    const now = new Date();
    const params = [now, batch, ...eachRowParams('device.offline', now)];
    const out = await db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${sql}`,
      params,
    );
    return out.rows.map((r) => r['QUERY PLAN']).join('\n');
  } finally {
    await db.query('ROLLBACK');
  }
}

/** One pass through the built CLI; its last JSON line. */
function runPass(
  url: string,
  fakeUrl: string,
): { out: string; parsed?: { offline: number; batches: number; ms: number } } {
  const env = serviceEnv(0, url, fakeUrl);
  const cli = join(process.env.BENCH_SERVICE_ROOT ?? join(__dirname, '..'), 'dist', 'cli.js');
  const r = spawnSync(process.execPath, [cli, 'device:liveness'], { env, encoding: 'utf8' });
  const out = `${r.stdout}${r.stderr}`.trim();
  // One JSON object on stdout (docs/cli.md); its last line, should anything come before it.
  const last = r.stdout.trim().split('\n').pop() ?? '';
  try {
    return { out, parsed: JSON.parse(last) as { offline: number; batches: number; ms: number } };
  } catch {
    return { out };
  }
}

export async function livenessBench(url: string, fakeUrl: string): Promise<LivenessResult> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    const { devices, crossing } = await makeCrossing(db, CROSSING_SHARE);
    const { sql, batch, source } = livenessSql();
    const plan = await explain(db, sql, batch);
    const pass = runPass(url, fakeUrl);
    return {
      devices,
      crossing,
      passMs: pass.parsed?.ms ?? NaN,
      offline: pass.parsed?.offline ?? NaN,
      batches: pass.parsed?.batches ?? NaN,
      cliOutput: pass.out.slice(-2000),
      plan,
      planSource: source,
      indexOnly: /IDX_devices_liveness_due/.test(plan) && !/Seq Scan on devices/.test(plan),
    };
  } finally {
    await db.end();
  }
}

/** The section's heading starts so whatever the statement's name in it. */
const PLAN_SECTION = '## The liveness pass';
const PLAN_HEADING = `${PLAN_SECTION} (LIVENESS_PASS_SQL)`;

/** The section of bench/plans.md with the pass's plan. */
export function livenessPlanMarkdown(r: LivenessResult, date: string, sql: string): string {
  return [
    PLAN_HEADING,
    '',
    `Written by \`npm run bench\` (${date}): ${r.devices} devices, ${r.crossing} of them past their ` +
      `deadline; one batch of the pass from ${r.planSource} ($1 = now, $2 = the batch size), under ` +
      '`EXPLAIN (ANALYZE, BUFFERS)` in a transaction that was rolled back. ' +
      (r.indexOnly
        ? 'A range of IDX_devices_liveness_due, no Seq Scan of the devices.'
        : '**Not an index range: look.**'),
    '',
    '```sql',
    sql.replace(/\s+/g, ' ').trim(),
    '```',
    '',
    '```',
    r.plan,
    '```',
    '',
  ].join('\n');
}
