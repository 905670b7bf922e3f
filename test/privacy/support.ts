import { randomBytes } from 'node:crypto';
import type { CliResult } from '../../src/cli/cli-runner';
import { Client } from 'pg';
import { completedSession } from '../../dev-processor/completed-session';
import { eventEnvelope } from '../../dev-processor/processor-events';
import { capturingCliLogs, LoggedCliResult } from '../support/cli';

/** Every row of every table of schema public as text, by table: what a raw dump shows. */
export async function dumpTables(url: string): Promise<Map<string, string[]>> {
  const c = new Client({ connectionString: url });
  await c.connect();
  try {
    const { rows: tables } = await c.query<{ name: string }>(
      `SELECT tablename AS name FROM pg_catalog.pg_tables WHERE schemaname = 'public' ORDER BY 1`,
    );
    const dump = new Map<string, string[]>();
    for (const { name } of tables) {
      const quoted = `"${name.replaceAll('"', '""')}"`;
      const { rows } = await c.query<{ row: string }>(`SELECT t::text AS row FROM ${quoted} t`);
      dump.set(
        name,
        rows.map((r) => r.row),
      );
    }
    return dump;
  } finally {
    await c.end();
  }
}

/** The values of `values` found in `text`, as written or lowercased. */
export function foundIn(text: string, values: string[]): string[] {
  const lower = text.toLowerCase();
  return values.filter((v) => text.includes(v) || lower.includes(v.toLowerCase()));
}

/** In which tables (and how) any of `values` shows. */
export function leaks(dump: Map<string, string[]>, values: string[]): string[] {
  return [...dump].flatMap(([table, rows]) =>
    rows.flatMap((row) => foundIn(row, values).map((v) => `${table}: ${v}`)),
  );
}

/** Personal values no other test writes: each field of a checkout and its paid event. */
export function distinctivePerson() {
  const r = randomBytes(5).toString('hex');
  return {
    name: `Zna${r}`,
    email: `zem${r}@example.com`,
    customerEmail: `zce${r}@example.com`,
    customerName: `Zcn${r} Carer`,
    phone: `Zph${r}`,
    recipientName: `Zrn${r}`,
    livingSituation: `Zls${r}`,
    primaryConcern: `Zpc${r}`,
    zip: `Zzp${r}`,
    shippingName: `Zsn${r}`,
    line1: `Zla${r} Street`,
    line2: `Zlb${r}`,
    city: `Zct${r}`,
  };
}
export type Person = ReturnType<typeof distinctivePerson>;

/** The values to look for (not the ones also in the checkout, once each). */
export const personValues = (p: Person): string[] => Object.values(p);

/** The processor's `checkout.session.completed` carrying every personal field of `p`. */
export function paidEvent(subscriptionId: string, sessionId: string, p: Person) {
  const session = completedSession(subscriptionId, {
    email: p.customerEmail,
    name: p.customerName,
    phone: p.phone,
    shipping: {
      name: p.shippingName,
      line1: p.line1,
      line2: p.line2,
      city: p.city,
      state: 'IL',
      postal_code: p.zip,
      country: 'US',
    },
    fields: {
      recipient_name: p.recipientName,
      living_situation: p.livingSituation,
      primary_concern: p.primaryConcern,
    },
  });
  return eventEnvelope('checkout.session.completed', { id: sessionId, ...session });
}

/**
 * Runs a command as `npm run cli` would with `env` on top of this process's environment. On fresh
 * modules: the configuration is read once per process (load-env.ts), and an app's boot on a new
 * database reads it too (a migration does), so a command after it would get that one.
 */
export async function cliWith(
  env: Record<string, string | undefined>,
  argv: string[],
): Promise<LoggedCliResult> {
  const names = ['DATABASE_POOL_SIZE', ...Object.keys(env)];
  const saved = Object.fromEntries(names.map((k) => [k, process.env[k]]));
  const set = (values: Record<string, string | undefined>) => {
    for (const [k, v] of Object.entries(values)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
  set({ DATABASE_POOL_SIZE: '2', ...env });
  try {
    let run!: (argv: string[]) => Promise<CliResult>;
    jest.isolateModules(() => {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      run = (require('../../src/cli/cli-runner') as typeof import('../../src/cli/cli-runner'))
        .runCli;
    });
    const [result, logs] = await capturingCliLogs(() => run(argv));
    return { ...result, logs };
  } finally {
    set(saved);
  }
}

/** cliWith for a command that must succeed: its JSON. */
export async function cliJsonWith<T = Record<string, unknown>>(
  env: Record<string, string | undefined>,
  argv: string[],
): Promise<T> {
  const result = await cliWith(env, argv);
  expect(result).toMatchObject({ code: 0 });
  return JSON.parse(result.stdout ?? '') as T;
}
