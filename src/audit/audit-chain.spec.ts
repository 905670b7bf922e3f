import { createHash, createHmac, randomBytes } from 'node:crypto';
import {
  assertSafeDetails,
  canonicalForm,
  canonicalJson,
  eventHash,
  GENESIS_HASH,
  keyedLink,
  microsecondTime,
} from './audit-chain';
import { ChainedRow, ChainStarts, ChainWalker } from './audit-chain-walker';

const auditKey = randomBytes(32);
const mac = (text: string) => createHmac('sha256', auditKey).update(text).digest('hex');

/** n events: plain links up to `keyedAfter`, keyed ones after it. */
function chain(n: number, keyedAfter = 0): ChainedRow[] {
  const rows: ChainedRow[] = [];
  let prev = GENESIS_HASH;
  for (let i = 1; i <= n; i++) {
    const fields = {
      seq: String(i),
      occurredAt: microsecondTime(new Date(Date.UTC(2026, 0, 1, 0, 0, i))),
      action: 'device.registered',
      actorType: 'user',
      actorId: 'u1',
      actorOrgId: '8a1e5b56-7a43-4f37-9a0e-0d2b8f9a1c01',
      subjectType: 'device',
      subjectId: `dev-${i}`,
      subjectOrgId: '8a1e5b56-7a43-4f37-9a0e-0d2b8f9a1c01',
      ip: '203.0.113.7',
      requestId: `req-${i}`,
      details: { b: 2, a: ['x', 'y'] },
      prevHash: prev,
    };
    const hash = i <= keyedAfter ? eventHash(fields) : keyedLink(fields, mac);
    rows.push({ ...fields, id: String(i + 100), hash });
    prev = hash;
  }
  return rows;
}

describe('the audit chain', () => {
  it('serialises objects with sorted keys at every depth, so jsonb key order does not matter', () => {
    expect(canonicalJson({ b: 1, a: { d: [1, { f: null, e: 'x' }], c: true } })).toBe(
      '{"a":{"c":true,"d":[1,{"e":"x","f":null}]},"b":1}',
    );
  });

  it('hashes the canonical form, which covers every stored field and the previous hash', () => {
    const [row] = chain(1, 1);
    const form = canonicalForm(row);
    expect(JSON.parse(form)).toEqual([
      'v1',
      '1',
      '2026-01-01T00:00:01.000000Z',
      'device.registered',
      'user',
      'u1',
      row.actorOrgId,
      'device',
      'dev-1',
      row.subjectOrgId,
      '203.0.113.7',
      'req-1',
      { a: ['x', 'y'], b: 2 },
      GENESIS_HASH,
    ]);
    expect(row.hash).toBe(createHash('sha256').update(form).digest('hex'));
    expect(eventHash({ ...row, ip: '203.0.113.8' })).not.toBe(row.hash);
    expect(eventHash({ ...row, occurredAt: '2026-01-01T00:00:01.000001Z' })).not.toBe(row.hash);
    expect(eventHash({ ...row, prevHash: 'f'.repeat(64) })).not.toBe(row.hash);
    const keyed = keyedLink(row, mac);
    expect(keyed).toBe(mac(canonicalForm(row, 'v2')));
    expect(keyed).not.toBe(row.hash);
  });

  const fresh = (): ChainStarts => ({
    keyed: { seq: 0n, hash: GENESIS_HASH },
    pruned: new Map(),
  });
  const walk = (
    rows: ChainedRow[],
    starts = fresh(),
    checkpoint?: { seq: bigint; hash: string },
  ) => {
    const walker = new ChainWalker(starts, mac, checkpoint);
    const broken = rows.map((r) => walker.next(r)).find((b) => b !== undefined);
    return { broken, end: walker.end(), count: walker.count };
  };

  it('accepts an unbroken keyed chain from the genesis value, and counts it', () => {
    expect(walk(chain(5))).toEqual({ broken: undefined, end: undefined, count: 5 });
  });

  it('accepts a chain with plain links up to its keyed start and keyed links after it', () => {
    const rows = chain(5, 2);
    const starts = { ...fresh(), keyed: { seq: 2n, hash: rows[1].hash } };
    expect(walk(rows, starts)).toEqual({ broken: undefined, end: undefined, count: 5 });
    // Plain links past the keyed start do not verify, nor keyed ones before it.
    expect(walk(chain(5, 3), starts).broken).toMatchObject({ seq: '3', reason: 'hash' });
    expect(walk(rows, fresh()).broken).toMatchObject({ seq: '1', reason: 'hash' });
  });

  it('fails a rewritten plain part: the keyed start and the first keyed link hold its last hash', () => {
    const rows = chain(3, 3);
    const starts = { ...fresh(), keyed: { seq: 3n, hash: rows[2].hash } };
    const rewritten = { ...rows[2], details: { n: 1 } };
    const forged = [rows[0], rows[1], { ...rewritten, hash: eventHash(rewritten) }];
    expect(walk(forged, starts).broken).toMatchObject({ seq: '3', reason: 'keyed_start' });
  });

  it('fails an event forged with a plain SHA-256 where the links are keyed', () => {
    const rows = chain(4);
    const forged = { ...rows[3], action: 'subscription.exported' };
    rows[3] = { ...forged, hash: eventHash(forged) };
    expect(walk(rows).broken).toEqual({ id: '104', seq: '4', reason: 'hash' });
  });

  it('names the first row whose own hash does not match', () => {
    const rows = chain(4);
    rows[2] = { ...rows[2], details: { b: 3, a: ['x', 'y'] } };
    expect(walk(rows)).toMatchObject({ broken: { id: '103', seq: '3', reason: 'hash' }, count: 2 });
  });

  it('names a row whose link does not match, or a row missing in the middle', () => {
    const rows = chain(4);
    const relinked = { ...rows[2], prevHash: GENESIS_HASH };
    const fake = { ...relinked, hash: keyedLink(relinked, mac) };
    expect(walk([rows[0], rows[1], fake]).broken).toEqual({
      id: '103',
      seq: '3',
      reason: 'prev_hash',
    });
    expect(walk([rows[0], rows[2]]).broken).toEqual({ id: '103', seq: '3', reason: 'seq' });
  });

  it('takes the oldest event only after the genesis value or a recorded pruning', () => {
    const rows = chain(5);
    expect(walk(rows.slice(2)).broken).toEqual({ id: '103', seq: '3', reason: 'start' });
    const starts = fresh();
    starts.pruned.set('2', rows[1].hash);
    expect(walk(rows.slice(2), starts)).toEqual({ broken: undefined, end: undefined, count: 3 });
    starts.pruned.set('1', rows[0].hash);
    expect(walk(rows.slice(1), starts).broken).toBeUndefined();
    expect(walk(rows.slice(3), starts).broken).toMatchObject({ seq: '4', reason: 'start' });
  });

  it('fails when the newest events are gone past a recorded start', () => {
    const rows = chain(5, 4);
    const keyed = { ...fresh(), keyed: { seq: 4n, hash: rows[3].hash } };
    expect(walk(rows.slice(0, 3), keyed).end).toMatch(/newest audit events are missing.*seq 4/);
    expect(walk([], keyed).end).toMatch(/newest event left is none/);
    expect(walk([]).end).toBeUndefined();
    const pruned = fresh();
    pruned.pruned.set('2', rows[1].hash);
    expect(walk([], pruned).end).toMatch(/seq 2/);
  });

  it('checks a logged checkpoint: its event there, with its hash', () => {
    const rows = chain(5);
    const at = (seq: number, hash = rows[seq - 1].hash) => ({ seq: BigInt(seq), hash });
    expect(walk(rows, fresh(), at(3))).toMatchObject({ broken: undefined, end: undefined });
    expect(walk(rows, fresh(), at(3, 'a'.repeat(64))).broken).toMatchObject({
      seq: '3',
      reason: 'checkpoint',
    });
    expect(walk(rows.slice(0, 2), fresh(), at(3)).end).toMatch(
      /seq 3 of the checkpoint is missing/,
    );
  });

  it('refuses details that are not ids, counts or codes', () => {
    expect(() =>
      assertSafeDetails({ ids: ['a1', 'b2'], count: 3, reason: 'manual', ok: true, none: null }),
    ).not.toThrow();
    expect(() => assertSafeDetails({ email: 'ann@example.com' })).toThrow(/email/);
    expect(() => assertSafeDetails({ name: 'Ann Smith' })).toThrow(/name/);
    expect(() => assertSafeDetails({ 'Bad Key': 1 })).toThrow(/bad key/);
    expect(() => assertSafeDetails({ n: Number.NaN })).toThrow();
  });
});
