import { AuditTrail } from '../../src/audit/audit-trail.service';
import { runCli } from '../support/cli';
import { emptyDatabase, EmptyDatabase } from '../support/empty-database';
import { createTestApp, TestApp } from '../support/test-app';
import { recordFigure } from './support/figures';

/**
 * Two instances append to the audit trail at once (docs/audit.md): the advisory lock keeps one
 * chain, which `audit:verify` accepts whole. On an empty database of its own, so the chain holds
 * only these events.
 */
describe('audit chain: two instances writing at once keep one chain', () => {
  let db: EmptyDatabase;
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    db = await emptyDatabase();
    // The CLI reads the environment once per process (load-env.ts): set before anything loads it.
    process.env.DATABASE_URL = db.url;
    process.env.DATABASE_POOL_SIZE = '2';
    const env = { DATABASE_URL: db.url, RECONCILE_INTERVAL_SECONDS: '0' };
    a = await createTestApp({ env });
    b = await createTestApp({ env });
  });
  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await db?.stop();
  });

  /** `n` events from one instance, `lanes` of them in flight at a time. */
  async function write(t: TestApp, name: string, n: number, lanes = 10): Promise<number> {
    const trail = t.app.get(AuditTrail);
    let failed = 0;
    await Promise.all(
      Array.from({ length: lanes }, async (_, lane) => {
        for (let i = lane; i < n; i += lanes) {
          await trail
            .append({
              action: 'test.written',
              actor: { type: 'system', id: null, orgId: null },
              details: { instance: name, n: i },
            })
            .catch(() => failed++);
        }
      }),
    );
    return failed;
  }

  it('writes 1 000 events from two instances, and audit:verify accepts the one chain', async () => {
    const [failedA, failedB] = await Promise.all([write(a, 'a', 500), write(b, 'b', 500)]);
    const result = await runCli(['audit:verify']);
    const verified =
      result.code === 0 ? (JSON.parse(result.stdout ?? '{}') as { verified: number }).verified : 0;
    recordFigure(
      'Scale-out',
      'audit events appended by 2 instances at once (500 each, 10 in flight each): failed / verified in one chain',
      `${failedA + failedB} / ${verified}`,
      '0 / 1000',
    );
    expect(result.stderr).toBeUndefined();
    expect(failedA + failedB).toBe(0);
    expect(verified).toBe(1000);
  });
});
