import { createHash } from 'node:crypto';
import {
  assertSafeDetails,
  canonicalForm,
  canonicalJson,
  ChainedRow,
  ChainWalker,
  eventHash,
  GENESIS_HASH,
  microsecondTime,
} from './audit-chain';

function chain(n: number): ChainedRow[] {
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
    const hash = eventHash(fields);
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
    const [row] = chain(1);
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
  });

  it('accepts an unbroken chain and counts it, a pruned start included', () => {
    const walker = new ChainWalker();
    expect(
      chain(5)
        .slice(2)
        .map((r) => walker.next(r)),
    ).toEqual([undefined, undefined, undefined]);
    expect(walker.count).toBe(3);
  });

  it('names the first row whose own hash does not match', () => {
    const rows = chain(4);
    rows[2] = { ...rows[2], details: { b: 3, a: ['x', 'y'] } };
    const walker = new ChainWalker();
    expect(rows.map((r) => walker.next(r))[2]).toEqual({ id: '103', seq: '3', reason: 'hash' });
    expect(walker.count).toBe(2);
  });

  it('names a row whose link does not match, or a row missing in the middle', () => {
    const rows = chain(4);
    const relinked = { ...rows[2], prevHash: GENESIS_HASH };
    const fake = { ...relinked, hash: eventHash(relinked) };
    const walker = new ChainWalker();
    walker.next(rows[0]);
    walker.next(rows[1]);
    expect(walker.next(fake)).toEqual({ id: '103', seq: '3', reason: 'prev_hash' });
    const gap = new ChainWalker();
    gap.next(rows[0]);
    expect(gap.next(rows[2])).toEqual({ id: '103', seq: '3', reason: 'seq' });
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
