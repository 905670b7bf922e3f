/**
 * The plans of the hot queries at the large size: the service runs with bench/sql-trace.js, a few
 * requests go to each measured route, and every distinct statement it sent is run again under
 * `EXPLAIN (ANALYZE, BUFFERS)` (in a transaction that is rolled back) with the values it was sent
 * with. Written to bench/plans.md by the full run.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import type { Endpoint } from './load';
import { runWindow } from './load-input';
import { freePort, LoadWorker, startServer, stopServer } from './procs';
import type { Seeded } from './seed';
import { serviceArgs, serviceEnv } from './service-env';

interface Traced {
  text: string;
  values: unknown[];
}

/** Not a route: the outgoing-webhook delivery worker's poll, sent on its own timer every second. */
const BACKGROUND = 'delivery worker (its timer)';
const BACKGROUND_SQL = /^\s*WITH due AS|FROM webhook_deliveries d JOIN outgoing_events/;

export interface RoutePlans {
  endpoint: Endpoint | typeof BACKGROUND;
  statements: { text: string; plan: string; ms: number }[];
}

/** Statements with nothing to plan. */
const SKIP = /^\s*(START TRANSACTION|BEGIN|COMMIT|ROLLBACK|SET |SHOW |SELECT version\(\))/i;

function readTrace(file: string, from: number): Traced[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .slice(from)
    .split('\n')
    .filter((l) => l.length > 0)
    .map((l) => JSON.parse(l) as Traced);
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function explain(url: string, q: Traced): Promise<{ plan: string; ms: number }> {
  const first = await explainOnce(url, q.text, q.values);
  // An insert the service committed conflicts when run again with its own id (the first value):
  // the same statement with a fresh id has the same plan.
  if ('duplicate' in first && typeof q.values[0] === 'string' && UUID.test(q.values[0])) {
    const again = await explainOnce(url, q.text, [randomUUID(), ...q.values.slice(1)]);
    if (!('duplicate' in again)) return { ...again, plan: `(with a fresh id)\n${again.plan}` };
  }
  return first;
}

async function explainOnce(
  url: string,
  text: string,
  values: unknown[],
): Promise<{ plan: string; ms: number; duplicate?: true }> {
  const db = new Client({ connectionString: url });
  await db.connect();
  try {
    await db.query('BEGIN');
    const out = await db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (ANALYZE, BUFFERS) ${text}`,
      values,
    );
    const plan = out.rows.map((r) => r['QUERY PLAN']).join('\n');
    const m = /Execution Time: ([\d.]+) ms/.exec(plan);
    return { plan, ms: m ? Number(m[1]) : NaN };
  } catch (err) {
    const duplicate =
      (err as { code?: string }).code === '23505' ? { duplicate: true as const } : {};
    return { plan: `(not explained: ${String(err)})`, ms: NaN, ...duplicate };
  } finally {
    await db.query('ROLLBACK').catch(() => undefined);
    await db.end();
  }
}

export async function capturePlans(
  url: string,
  fakeUrl: string,
  seeded: Seeded,
  endpoints: Endpoint[],
  next: { subscription: number },
  worker: LoadWorker,
): Promise<RoutePlans[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-trace-'));
  const file = join(dir, 'sql.jsonl');
  const port = await freePort();
  const env = { ...serviceEnv(port, url, fakeUrl), SQL_TRACE_FILE: file };
  const args = ['-r', join(__dirname, 'sql-trace.js'), ...serviceArgs()];
  const server = await startServer('service', args, env, port);
  const routes: { endpoint: Endpoint; traced: Traced[] }[] = [];
  try {
    for (const endpoint of endpoints) {
      const from = existsSync(file) ? statSync(file).size : 0;
      await runWindow(worker, server.url, endpoint, seeded, next, {
        seconds: 1,
        amount: 3,
        connections: 1,
      });
      routes.push({ endpoint, traced: readTrace(file, from) });
    }
  } finally {
    await stopServer(server);
  }
  const result: RoutePlans[] = [];
  const background = new Map<string, Traced>();
  const planned = async (endpoint: RoutePlans['endpoint'], queries: Iterable<Traced>) => {
    const statements = [];
    for (const q of queries) statements.push({ text: q.text, ...(await explain(url, q)) });
    result.push({ endpoint, statements });
  };
  for (const { endpoint, traced } of routes) {
    const seen = new Map<string, Traced>();
    for (const q of traced) {
      if (SKIP.test(q.text)) continue;
      const into = BACKGROUND_SQL.test(q.text) ? background : seen;
      if (!into.has(q.text)) into.set(q.text, q);
    }
    await planned(endpoint, seen.values());
  }
  if (background.size) await planned(BACKGROUND, background.values());
  rmSync(dir, { recursive: true, force: true });
  return result;
}

export function plansMarkdown(plans: RoutePlans[], seeded: Seeded, date: string): string {
  const s = seeded.size;
  const lines = [
    '# Query plans of the hot paths at the large size',
    '',
    `Written by \`npm run bench\` (${date}): every distinct statement the service sent while serving a ` +
      'few requests of each measured route, run again under `EXPLAIN (ANALYZE, BUFFERS)` with the same ' +
      'values, inside a transaction that was rolled back. Tables: ' +
      `${s.orgDevices + s.otherDevices} devices (${s.orgDevices} in the measured org), ${s.sessions} sessions, ` +
      `${s.eventIds} stored event ids, ${s.subscriptions} subscriptions. The deep page is the list 90 % down ` +
      'the measured org, by its keyset cursor.',
    '',
    '| route | statement | execution ms |',
    '| --- | --- | ---: |',
  ];
  for (const r of plans) {
    for (const st of r.statements) {
      lines.push(
        `| ${r.endpoint} | \`${oneLine(st.text).slice(0, 90).replace(/\|/g, '\\|')}\` | ${st.ms.toFixed(3)} |`,
      );
    }
  }
  for (const r of plans) {
    lines.push('', `## ${r.endpoint}`);
    for (const st of r.statements) {
      lines.push('', '```sql', oneLine(st.text), '```', '', '```', st.plan, '```');
    }
  }
  return `${lines.join('\n')}\n`;
}

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();
