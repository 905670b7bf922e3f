import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import e2eGlobalSetup from '../../setup/global-setup';

/** The e2e database for the run, plus a directory where every spec leaves its figures. */
export default async function globalSetup(): Promise<void> {
  await e2eGlobalSetup();
  const dir = mkdtempSync(join(tmpdir(), 'dc-reliability-'));
  process.env.RELIABILITY_FIGURES_DIR = dir;
  process.env.RELIABILITY_STARTED_AT = new Date().toISOString();
}
