import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ADVISORY_LOCK } from './database/advisory-locks';

/** The rules of ARCHITECTURE.md that a linter cannot see, checked over the source text. */
const ROOT = join(__dirname, '..');

function sources(dir = __dirname): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** The code without its comments, which may name what the code must not do. */
const withoutComments = (text: string) =>
  text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

const FILES = sources().map((path) => ({
  path: relative(ROOT, path),
  text: withoutComments(readFileSync(path, 'utf8')),
}));
const where = (test: (text: string, path: string) => boolean) =>
  FILES.filter((f) => test(f.text, f.path)).map((f) => f.path);

/** Migrations are the schema's history: what they once ran is not rewritten. */
const CLOCK = 'src/common/clock/clock.ts';
const JOSE = 'src/common/jwt/jose.ts';
const isMigration = (path: string) => path.startsWith('src/database/migrations/');

describe('ARCHITECTURE.md, checked', () => {
  it('writes audit lines only through AuditLog', () => {
    expect(where((text) => /Logger\(\s*['"]Audit['"]/.test(text))).toEqual([
      'src/common/logging/audit-log.ts',
    ]);
  });

  it('takes every time from the Clock: no now() in SQL, no database-stamped columns', () => {
    const sqlNow = /\bnow\(\)|CURRENT_TIMESTAMP|CreateDateColumn|UpdateDateColumn/;
    // `clock.now()` and `performance.now()` are the Clock and a duration, not SQL.
    const offenders = where((text, path) => {
      const stripped = text.replace(/\b(clock|this\.clock|performance|this)\.now\(\)/g, '');
      return !isMigration(path) && path !== CLOCK && sqlNow.test(stripped);
    });
    expect(offenders).toEqual([]);
    expect(
      where((text, path) => path !== CLOCK && /new Date\(\)|Date\.now\(\)/.test(text)),
    ).toEqual([]);
  });

  it('takes advisory locks only with a key from the one registry, each key once', () => {
    const locking = where((text) => /pg_(try_)?advisory/.test(text));
    expect(locking.length).toBeGreaterThan(0);
    expect(
      where((text) => /pg_(try_)?advisory/.test(text) && !text.includes('ADVISORY_LOCK.')),
    ).toEqual([]);
    const keys = Object.values(ADVISORY_LOCK);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives each JWT library one job: jose is loaded once, and never for the device bearer', () => {
    // Imports are checked by eslint (no-restricted-imports); these are the run-time loads.
    expect(where((text) => /require\(\s*['"]jose['"]/.test(text))).toEqual([JOSE]);
    expect(where((text) => /require\(\s*['"](jsonwebtoken|passport-jwt)['"]/.test(text))).toEqual(
      [],
    );
    // ID tokens, device assertions and key thumbprints; the device bearer is not among them.
    expect(where((text, path) => path !== JOSE && text.includes('joseLib()'))).toEqual([
      'src/auth/id-token.verifier.ts',
      'src/device/device-assertion.verifier.ts',
      'src/device/device-key.ts',
    ]);
  });

  // Checked elsewhere, once: no module exports TypeOrmModule (app.module.spec.ts); the environment
  // is read only in config/load-env.ts (eslint no-restricted-properties).
});
