import { randomBytes } from 'node:crypto';
import {
  keyedHash,
  keyId,
  newDataKey,
  open,
  openLegacySecret,
  seal,
  unwrap,
  wrap,
  wrappedBy,
  wrappedByPattern,
} from './personal-data.crypto';

const master = Buffer.alloc(32, 1);
const other = Buffer.alloc(32, 2);
const owner = '7b0d4a52-3f1e-4c55-9a51-0c6d1e2f3a4b';

/** Changes one character of the part at `index` (of the dot-separated text). */
function tamper(text: string, index: number): string {
  const parts = text.split('.');
  const p = parts[index];
  parts[index] = (p[0] === 'A' ? 'B' : 'A') + p.slice(1);
  return parts.join('.');
}

describe('personal data crypto', () => {
  it('wraps a key naming its master key, and unwraps it with that key only', () => {
    const key = newDataKey();
    const wrapped = wrap(master, key);
    expect(wrapped).toMatch(/^k1\.[0-9a-f]{16}\./);
    expect(wrappedBy(wrapped)).toBe(keyId(master));
    expect(unwrap(master, wrapped).equals(key)).toBe(true);
    expect(() => unwrap(other, wrapped)).toThrow();
    expect(wrap(master, key)).not.toBe(wrapped); // a new IV each time
  });

  it('gives the LIKE pattern of what a master key wrapped, and only of that', () => {
    const pattern = wrappedByPattern(keyId(master));
    expect(pattern.endsWith('.%')).toBe(true);
    const prefix = pattern.slice(0, -1);
    expect(wrap(master, newDataKey()).startsWith(prefix)).toBe(true);
    expect(wrap(other, newDataKey()).startsWith(prefix)).toBe(false);
    expect(prefix).not.toMatch(/[%_\\]/); // no LIKE wildcard but the last
  });

  it('names a key by a short hash, never the key itself', () => {
    expect(keyId(master)).toMatch(/^[0-9a-f]{16}$/);
    expect(keyId(master)).not.toBe(keyId(other));
    expect(master.toString('hex')).not.toContain(keyId(master));
    expect(wrappedBy('s1.a.b.c')).toBeUndefined();
    expect(wrappedBy('v1.a.b.c')).toBeUndefined();
  });

  it('seals text under a data key and opens it back', () => {
    const key = newDataKey();
    const sealed = seal(key, owner, 'Zed Carer lives alone');
    expect(sealed.startsWith('s1.')).toBe(true);
    expect(sealed).not.toContain('Zed');
    expect(open(key, owner, sealed)).toBe('Zed Carer lives alone');
    expect(() => open(newDataKey(), owner, sealed)).toThrow();
  });

  it('binds a sealed value to its owner: moved to another record it does not open', () => {
    const key = newDataKey();
    const sealed = seal(key, owner, 'secret');
    expect(() => open(key, '00000000-0000-4000-8000-000000000000', sealed)).toThrow();
  });

  it('refuses a changed value, tag or IV', () => {
    const key = newDataKey();
    const sealed = seal(key, owner, 'some personal text');
    for (const part of [1, 2, 3]) expect(() => open(key, owner, tamper(sealed, part))).toThrow();
    const wrapped = wrap(master, key);
    for (const part of [2, 3, 4]) expect(() => unwrap(master, tamper(wrapped, part))).toThrow();
    expect(() => open(key, owner, 'plain text')).toThrow();
    expect(() => unwrap(master, sealed)).toThrow(/not a wrapped key/);
  });

  it('opens the legacy webhook secret format with its key only', () => {
    const wrapped = wrap(master, Buffer.from('whsec_x'));
    const legacy = ['v1', ...wrapped.split('.').slice(2)].join('.');
    expect(openLegacySecret(master, legacy).toString()).toBe('whsec_x');
    expect(() => openLegacySecret(other, legacy)).toThrow();
    expect(() => openLegacySecret(master, wrapped)).toThrow(/not a legacy secret/);
  });

  it('hashes with the search key: the same value the same, another key another', () => {
    const searchKey = randomBytes(32);
    const h = keyedHash(searchKey, 'dana@example.com');
    expect(h).toMatch(/^[0-9a-f]{64}$/);
    expect(keyedHash(searchKey, 'dana@example.com')).toBe(h);
    expect(keyedHash(searchKey, 'dana2@example.com')).not.toBe(h);
    expect(keyedHash(randomBytes(32), 'dana@example.com')).not.toBe(h);
  });
});
