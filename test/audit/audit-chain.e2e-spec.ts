import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { AuditTrail } from '../../src/audit/audit-trail.service';
import { eventHash, GENESIS_HASH, microsecondTime } from '../../src/audit/audit-chain';
import { Clock } from '../../src/common/clock/clock';
import { Housekeeping } from '../../src/database/housekeeping.service';
import { signIn } from '../support/auth';
import { cliJson, runCli } from '../support/cli';
import { emptyDatabase, EmptyDatabase } from '../support/empty-database';
import { FakeClock } from '../support/fake-clock';
import { createFulfilmentOrg, newFulfilmentOrgId } from '../support/subscriptions';
import { createTestApp, TestApp } from '../support/test-app';
import { TEST_DATA_KEY } from '../support/test-keys';
import { DataKeyring } from '../../src/personal-data/data-keyring';
import { KEY_CHECK } from '../../src/personal-data/data-keyring.check';
import { unwrap, wrap } from '../../src/personal-data/personal-data.crypto';
import { cliJsonWith, cliWith } from '../privacy/support';

// Commands boot their own modules, and the upgrade's migrations run from an empty database.
jest.setTimeout(120_000);

const system = { type: 'system' as const, id: null, orgId: null };

/**
 * Both ends of the keyed chain (docs/audit.md): the reviewers' tampering, each undone after its
 * check, on an empty database of this spec's own that two app instances write to at once.
 */
describe('the audit chain at both ends', () => {
  const fulfilmentOrgId = newFulfilmentOrgId();
  let db: EmptyDatabase;
  let clock: FakeClock;
  let a: TestApp;
  let b: TestApp;
  // Signed in before the clock moves years ahead (an ID token is checked against it).
  let operator: { cookie: string };
  let other: { cookie: string };
  const sql = <T>(text: string, params: unknown[] = []) =>
    a.app.get(DataSource).query<T[]>(text, params);
  const inTransaction = <T>(work: (m: EntityManager) => Promise<T>) =>
    a.app.get(DataSource).transaction(work);
  const verify = (...args: string[]) => runCli(['audit:verify', ...args]);
  const head = () => cliJson<{ seq: number; hash: string; occurred_at: string }>(['audit:head']);
  const appendMany = (t: TestApp, n: number) =>
    Promise.all(
      Array.from({ length: n }, (_, i) =>
        t.app.get(AuditTrail).append({ action: 'test.written', actor: system, details: { n: i } }),
      ),
    );

  /** Runs `tamper`, expects `audit:verify` (with `args`) to exit 1 saying `why`, then undoes it. */
  async function expectCaught(tamper: () => Promise<unknown>, why: RegExp, args: string[] = []) {
    const [saved] = await sql<{ events: unknown; starts: unknown }>(
      `SELECT (SELECT json_agg(e) FROM audit_events e) AS events,
              (SELECT json_agg(s) FROM audit_chain_starts s) AS starts`,
    );
    try {
      await tamper();
      const result = await verify(...args);
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(why);
    } finally {
      await inTransaction(async (m) => {
        await m.query('SET LOCAL session_replication_role = replica');
        await m.query('DELETE FROM audit_events');
        await m.query('DELETE FROM audit_chain_starts');
        await m.query(
          'INSERT INTO audit_events SELECT * FROM json_populate_recordset(null::audit_events, $1)',
          [JSON.stringify(saved.events)],
        );
        await m.query(
          'INSERT INTO audit_chain_starts SELECT * FROM json_populate_recordset(null::audit_chain_starts, $1)',
          [JSON.stringify(saved.starts)],
        );
      });
    }
    expect((await verify()).code).toBe(0);
  }

  beforeAll(async () => {
    db = await emptyDatabase();
    clock = new FakeClock();
    // The CLI reads its configuration from the environment, as it does in production.
    process.env.DATABASE_URL = db.url;
    process.env.DATABASE_POOL_SIZE = '2';
    const env = {
      DATABASE_URL: db.url,
      RECONCILE_INTERVAL_SECONDS: '0',
      FULFILMENT_ORG_ID: fulfilmentOrgId,
    };
    a = await createTestApp({ env, override: (x) => x.overrideProvider(Clock).useValue(clock) });
    b = await createTestApp({ env, override: (x) => x.overrideProvider(Clock).useValue(clock) });
    await createFulfilmentOrg(a.app, fulfilmentOrgId);
    operator = await signIn(a, { orgId: fulfilmentOrgId, role: 'admin' });
    other = await signIn(a, { role: 'admin' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.stop();
  });

  it('keeps one verifiable chain while two instances append at once', async () => {
    const count = async () =>
      Number((await sql<{ n: string }>('SELECT count(*) AS n FROM audit_events'))[0].n);
    const before = await count();
    await Promise.all([appendMany(a, 15), appendMany(b, 15)]);
    expect(await count()).toBe(before + 30);
    expect(await cliJson(['audit:verify'])).toEqual({ verified: before + 30 });
    const [keyed] = await sql<{ seq: string }>(
      "SELECT seq FROM audit_chain_starts WHERE kind = 'keyed'",
    );
    expect(keyed.seq).toBe('0');
  });

  it('audit:head prints the newest event; a checkpoint of it verifies', async () => {
    const newest = await head();
    const [row] = await sql<{ seq: string; hash: string }>(
      'SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1',
    );
    expect(newest).toEqual({
      seq: Number(row.seq),
      hash: row.hash,
      occurred_at: expect.any(String),
    });
    expect((await verify('--checkpoint', `${newest.seq}:${newest.hash}`)).code).toBe(0);
    const bad = await verify('--checkpoint', 'not-a-checkpoint');
    expect(bad).toMatchObject({ code: 1, stderr: expect.stringMatching(/SEQ:HASH/) });
  });

  it('fails when the oldest events are deleted with the triggers off', async () => {
    const replica = () =>
      inTransaction(async (m) => {
        await m.query('SET LOCAL session_replication_role = replica');
        await m.query('DELETE FROM audit_events WHERE seq <= 2');
      });
    await expectCaught(replica, /\(seq 3\) does not match: its prev_hash is neither/);
    const disabled = async () => {
      await sql('ALTER TABLE audit_events DISABLE TRIGGER USER');
      await sql('DELETE FROM audit_events WHERE seq <= 2');
      await sql('ALTER TABLE audit_events ENABLE TRIGGER USER');
    };
    await expectCaught(disabled, /\(seq 3\) does not match/);
  });

  it('lets the pruning setting delete nothing without a recorded start, and a forged start fails', async () => {
    const trick = (where: string) =>
      inTransaction(async (m) => {
        await m.query("SET LOCAL device_care.audit_prune = 'on'");
        await m.query(`DELETE FROM audit_events WHERE ${where}`);
      });
    await expect(trick('seq BETWEEN 5 AND 7')).rejects.toThrow(/append-only/);
    await expect(trick('seq <= 3')).rejects.toThrow(/append-only/);
    const forged = (seq: number, where: string) => async () => {
      const [row] = await sql<{ hash: string }>('SELECT hash FROM audit_events WHERE seq = $1', [
        seq,
      ]);
      await sql(
        "INSERT INTO audit_chain_starts (kind, seq, hash, mac, recorded_at) VALUES ('pruned', $1, $2, $3, $4)",
        [seq, row.hash, 'f'.repeat(64), clock.now()],
      );
      await trick(where);
    };
    await expectCaught(forged(3, 'seq <= 3'), /start \(pruned, seq 3\) is not authentic/);
    const { seq: newest } = await head();
    await expectCaught(
      forged(newest, `seq >= ${newest - 3}`),
      new RegExp(`start \\(pruned, seq ${newest}\\) is not authentic`),
    );
  });

  it('verify --checkpoint fails when the newest events are deleted back past the checkpoint', async () => {
    const checkpoint = await head();
    await appendMany(a, 3);
    const cut = () =>
      inTransaction(async (m) => {
        await m.query('SET LOCAL session_replication_role = replica');
        await m.query('DELETE FROM audit_events WHERE seq >= $1', [checkpoint.seq]);
      });
    const args = ['--checkpoint', `${checkpoint.seq}:${checkpoint.hash}`];
    await expectCaught(cut, new RegExp(`seq ${checkpoint.seq} of the checkpoint is missing`), args);
  });

  it('fails an event inserted by hand with a recomputed plain SHA-256', async () => {
    const insert = async () => {
      const [last] = await sql<{ seq: string; hash: string }>(
        'SELECT seq, hash FROM audit_events ORDER BY seq DESC LIMIT 1',
      );
      const f = {
        seq: (BigInt(last.seq) + 1n).toString(),
        occurredAt: microsecondTime(clock.now()),
        action: 'subscription.exported',
        actorType: 'cli',
        actorId: 'root',
        actorOrgId: null,
        subjectType: 'subscription',
        subjectId: '7b0d4a52-3f1e-4c55-9a51-0c6d1e2f3a4b',
        subjectOrgId: null,
        ip: null,
        requestId: null,
        details: {},
        prevHash: last.hash,
      };
      await sql(
        `INSERT INTO audit_events (seq, occurred_at, action, actor_type, actor_id, actor_org_id,
          subject_type, subject_id, subject_org_id, ip, request_id, details, prev_hash, hash)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)`,
        [
          f.seq,
          f.occurredAt,
          f.action,
          f.actorType,
          f.actorId,
          f.actorOrgId,
          f.subjectType,
          f.subjectId,
          f.subjectOrgId,
          f.ip,
          f.requestId,
          '{}',
          f.prevHash,
          eventHash(f),
        ],
      );
    };
    await expectCaught(insert, /does not match: its hash does not match its fields/);
  });

  it("verifies after data:rekey; data.rekeyed is seen by the fulfilment organization's admins", async () => {
    const newKey = randomBytes(32).toString('base64');
    const rekey = await cliJsonWith(
      {
        DATABASE_URL: db.url,
        DATA_ENCRYPTION_KEY: newKey,
        DATA_ENCRYPTION_PREVIOUS_KEYS: TEST_DATA_KEY,
      },
      ['data:rekey'],
    );
    expect(rekey).toMatchObject({ key_check: 'rewrapped' });
    const newKeyOnly = {
      DATABASE_URL: db.url,
      DATA_ENCRYPTION_KEY: newKey,
      DATA_ENCRYPTION_PREVIOUS_KEYS: undefined,
    };
    const [{ n }] = await sql<{ n: string }>('SELECT count(*) AS n FROM audit_events');
    expect(await cliJsonWith(newKeyOnly, ['audit:verify'])).toEqual({ verified: Number(n) });
    // Back under the run's key, which this file's other commands are configured with.
    const back = { ...newKeyOnly, DATA_ENCRYPTION_KEY: TEST_DATA_KEY };
    await cliJsonWith({ ...back, DATA_ENCRYPTION_PREVIOUS_KEYS: newKey }, ['data:rekey']);
    expect(await cliJsonWith(back, ['audit:verify'])).toEqual({ verified: Number(n) + 1 });
    const list = (cookie: string) =>
      a
        .http()
        .get('/api/v1/audit-events')
        .set('Cookie', cookie)
        .query({ action: 'data.rekeyed' })
        .expect(200);
    const seen = (await list(operator.cookie)).body as { items: { actor: { type: string } }[] };
    expect(seen.items).toHaveLength(2);
    expect(seen.items.map((e) => e.actor.type)).toEqual(['cli', 'cli']);
    expect((await list(other.cookie)).body.items).toEqual([]);
  });

  it('prunes from the oldest end, recording the start; the rest verifies', async () => {
    const [{ n }] = await sql<{ n: string }>('SELECT count(*) AS n FROM audit_events');
    clock.advance(2190 * 86_400 + 10);
    await appendMany(a, 2);
    const report = await a.app.get(Housekeeping).runOnce();
    // Up to the first young event: the CLI wrote data.rekeyed at its own clock's time.
    const pruned = report.handled?.audit_events ?? 0;
    expect(pruned).toBeGreaterThan(0);
    const [oldest] = await sql<{ seq: string }>('SELECT min(seq) AS seq FROM audit_events');
    const starts = await sql<{ seq: string }>(
      "SELECT seq FROM audit_chain_starts WHERE kind = 'pruned'",
    );
    expect(starts).toEqual([{ seq: String(BigInt(oldest.seq) - 1n) }]);
    expect(await cliJson(['audit:verify'])).toEqual({ verified: Number(n) + 2 - pruned });
    await expectCaught(async () => {
      await sql('ALTER TABLE audit_chain_starts DISABLE TRIGGER USER');
      await sql("DELETE FROM audit_chain_starts WHERE kind = 'pruned'");
      await sql('ALTER TABLE audit_chain_starts ENABLE TRIGGER USER');
    }, /its prev_hash is neither/);
  });
});

type PgClient = import('pg').Client;

/** `n` events with plain SHA-256 links from `seq` 1, as a release before the keyed chain wrote them. */
async function writePlainChain(client: PgClient, n: number): Promise<string> {
  let prev = GENESIS_HASH;
  for (let i = 1; i <= n; i++) {
    const f = {
      seq: String(i),
      occurredAt: microsecondTime(new Date(Date.UTC(2026, 0, 1, 0, 0, i))),
      action: 'user.signed_in',
      actorType: 'system',
      actorId: null,
      actorOrgId: null,
      subjectType: null,
      subjectId: null,
      subjectOrgId: null,
      ip: null,
      requestId: null,
      details: { n: i },
      prevHash: prev,
    };
    prev = eventHash(f);
    await client.query(
      `INSERT INTO audit_events (seq, occurred_at, action, actor_type, details, prev_hash, hash)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [f.seq, f.occurredAt, f.action, f.actorType, JSON.stringify(f.details), f.prevHash, prev],
    );
  }
  return prev;
}

/** A migrated empty database and a client on it. */
async function migratedDatabase(): Promise<{ db: EmptyDatabase; client: PgClient }> {
  const db = await emptyDatabase();
  expect((await cliWith({ DATABASE_URL: db.url }, ['db:migrate'])).code).toBe(0);
  const { Client } = await import('pg');
  const client = new Client({ connectionString: db.url });
  await client.connect();
  return { db, client };
}

/**
 * A chain written with plain SHA-256 links (as a release before the keyed chain wrote it, its key
 * check saying so and no audit key), then the upgrade: the next boot records where the keyed part
 * starts and seals that in the key check; the chain verifies across both parts; a change in the
 * plain part still fails. Then what the upgrade must never do again, whatever the tables say.
 */
describe('the upgrade of a chain with plain links', () => {
  const dbs: EmptyDatabase[] = [];
  const clients: PgClient[] = [];
  let t: TestApp | undefined;
  afterAll(async () => {
    await t?.close();
    for (const c of clients) await c.end();
    for (const db of dbs) await db.stop();
  });

  async function world() {
    const w = await migratedDatabase();
    dbs.push(w.db);
    clients.push(w.client);
    return w;
  }

  it('keys the chain after its last plain event, and still catches tampering before it', async () => {
    const { db, client } = await world();
    const cli = (argv: string[]) => cliWith({ DATABASE_URL: db.url }, argv);
    const prev = await writePlainChain(client, 4);
    // The old release's key row: its check under the key, no audit key yet.
    const key = Buffer.from(TEST_DATA_KEY, 'base64');
    await client.query(
      `INSERT INTO data_protection (id, key_check, search_key, updated_at) VALUES (1, $1, $2, now())`,
      [wrap(key, Buffer.from(KEY_CHECK.plainChain)), wrap(key, randomBytes(32))],
    );
    t = await createTestApp({ env: { DATABASE_URL: db.url, RECONCILE_INTERVAL_SECONDS: '0' } });
    const sql = <T>(text: string) => t!.app.get(DataSource).query<T[]>(text);
    expect(await sql("SELECT seq, hash FROM audit_chain_starts WHERE kind = 'keyed'")).toEqual([
      { seq: '4', hash: prev },
    ]);
    expect(t.app.get(DataKeyring).chainKeyed).toBe(true);
    const [row] = await sql<{ key_check: string }>('SELECT key_check FROM data_protection');
    expect(unwrap(key, row.key_check).toString()).toBe(KEY_CHECK.keyedChain);
    await t.app.get(AuditTrail).append({ action: 'test.written', actor: system });
    expect(await cliJsonWith({ DATABASE_URL: db.url }, ['audit:verify'])).toEqual({
      verified: 5,
    });
    await client.query('ALTER TABLE audit_events DISABLE TRIGGER USER');
    await client.query(`UPDATE audit_events SET details = '{"n": 9}' WHERE seq = 2`);
    const result = await cli(['audit:verify']);
    expect(result).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('(seq 2) does not match'),
    });
  });

  it('upgrades a plain chain an earlier release pruned: its oldest event is recorded as where it starts', async () => {
    const { db, client } = await world();
    await writePlainChain(client, 6);
    // The earlier release's pruning: the two oldest gone, no start recorded (there was no table).
    await client.query('ALTER TABLE audit_events DISABLE TRIGGER USER');
    await client.query('DELETE FROM audit_events WHERE seq <= 2');
    await client.query('ALTER TABLE audit_events ENABLE TRIGGER USER');
    expect(await cliJsonWith({ DATABASE_URL: db.url }, ['audit:verify'])).toEqual({ verified: 4 });
    const { rows } = await client.query<{ kind: string; seq: string }>(
      'SELECT kind, seq FROM audit_chain_starts ORDER BY seq',
    );
    expect(rows).toEqual([
      { kind: 'pruned', seq: '2' },
      { kind: 'keyed', seq: '6' },
    ]);
  });

  it('never keys again a keyed chain rewritten with plain links, its starts deleted', async () => {
    const { db, client } = await world();
    const cli = (argv: string[]) => cliWith({ DATABASE_URL: db.url }, argv);
    // A new database, keyed from its first event; each rekey appends one.
    for (let i = 0; i < 3; i++) await cliJsonWith({ DATABASE_URL: db.url }, ['data:rekey']);
    expect(await cliJsonWith({ DATABASE_URL: db.url }, ['audit:verify'])).toEqual({ verified: 3 });
    // Whoever writes the database, without the key: the whole chain as they want it, plain.
    await client.query('ALTER TABLE audit_events DISABLE TRIGGER USER');
    await client.query('ALTER TABLE audit_chain_starts DISABLE TRIGGER USER');
    await client.query('DELETE FROM audit_events');
    await client.query('DELETE FROM audit_chain_starts');
    // Nothing left at all is not a new chain: the sealed check says this one was keyed.
    expect(await cli(['audit:verify'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('keyed start is missing'),
    });
    await writePlainChain(client, 3);
    expect(await cli(['audit:verify'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('keyed start is missing'),
    });
    const { rows } = await client.query('SELECT kind FROM audit_chain_starts');
    expect(rows).toEqual([]);
    // Nor with the audit key removed: the sealed check says there was one.
    await client.query('UPDATE data_protection SET audit_key = NULL');
    const noKey = await cli(['audit:verify']);
    expect(noKey.code).not.toBe(0);
    expect(noKey.stderr).toContain('holds no audit key');
  });
});
