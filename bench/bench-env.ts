import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { FakeProcessor } from '../test/support/fake-processor';

export interface BenchEnv {
  dbName: string;
  /** The fresh database's URL. */
  url: string;
  fake: FakeProcessor;
}

/** The PostgreSQL server the bench creates its databases on (its maintenance database). */
export function benchAdminUrl(): string {
  return process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
}

/**
 * Runs `work` with a fresh database on BENCH_DATABASE_URL's server (default: the local one) and a
 * fake processor answering at once; both are gone afterwards, whatever happened.
 */
export async function withBenchEnv<T>(
  prefix: string,
  work: (env: BenchEnv) => Promise<T>,
): Promise<T> {
  const admin = benchAdminUrl();
  const dbName = `${prefix}_${randomBytes(4).toString('hex')}`;
  const dbUrl = new URL(admin);
  dbUrl.pathname = `/${dbName}`;
  const adminClient = new Client({ connectionString: admin });
  await adminClient.connect();
  await adminClient.query(`CREATE DATABASE ${dbName}`);
  const fake = await new FakeProcessor().start();
  try {
    return await work({ dbName, url: dbUrl.toString(), fake });
  } finally {
    await fake.stop();
    await adminClient.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
    await adminClient.end();
  }
}
