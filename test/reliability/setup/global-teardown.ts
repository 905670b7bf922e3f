import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import e2eGlobalTeardown from '../../setup/global-teardown';
import { Figure, FIGURES_FILE, renderResults } from '../support/figures';

/** Prints the figures table and writes it to test/reliability/results.md. */
export default async function globalTeardown(): Promise<void> {
  await e2eGlobalTeardown();
  const dir = process.env.RELIABILITY_FIGURES_DIR;
  if (!dir) return;
  let lines: string[] = [];
  try {
    lines = readFileSync(join(dir, FIGURES_FILE), 'utf8').split('\n').filter(Boolean);
  } catch {
    // no spec recorded anything (e.g. a filtered run that failed early)
  }
  const figures = lines.map((l) => JSON.parse(l) as Figure);
  const markdown = renderResults(figures, {
    startedAt: process.env.RELIABILITY_STARTED_AT ?? '',
    finishedAt: new Date().toISOString(),
    database: process.env.E2E_DATABASE_KIND ?? 'unknown',
    redis: process.env.TEST_REDIS_URL ? 'yes' : 'no',
    node: process.version,
    beside: process.env.RELIABILITY_BESIDE,
  });
  process.stdout.write(`\n${markdown}\n`);
  // A filtered developer run must not overwrite the committed results with a partial table.
  if (process.env.RELIABILITY_WRITE_RESULTS !== '0') {
    writeFileSync(join(__dirname, '..', 'results.md'), markdown);
  }
  rmSync(dir, { recursive: true, force: true });
}
