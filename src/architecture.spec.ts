import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { ADVISORY_LOCK } from './database/advisory-locks';
import { ENTITY_TABLES, mayUseTable, TABLE_OWNERS } from './database/table-owners';

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
/**
 * As many source files as there are today, less a margin. Every check asserts it read at least
 * this many, so a wrong folder (after a move) fails loudly instead of passing over nothing.
 */
const AT_LEAST_FILES = 200;
function scanned(files = FILES, atLeast = AT_LEAST_FILES) {
  expect(files.length).toBeGreaterThanOrEqual(atLeast);
  return files;
}
const where = (test: (text: string, path: string) => boolean) =>
  scanned()
    .filter((f) => test(f.text, f.path))
    .map((f) => f.path);

/** The folder under src/ a file is in: its feature, a shared layer, or '' for the top files. */
const folderOf = (path: string) => (path.split('/').length > 2 ? path.split('/')[1] : '');

/** Tables a file names: in SQL (FROM, JOIN, UPDATE, INTO, TABLE) or as a retention rule's table. */
function tablesNamed(text: string): string[] {
  const sql = /\b(?:from|join|update|into|table)\s+(?:"?public"?\.)?"?([a-z_][a-z0-9_]*)"?/gi;
  const rule = /\btable:\s*['"`]([a-z_][a-z0-9_]*)['"`]/gi;
  const names = [...text.matchAll(sql), ...text.matchAll(rule)].map((m) => m[1].toLowerCase());
  // Words such as `from the` are prose; a table the registry lacks is the migrations check's.
  return [...new Set(names.filter((name) => Object.hasOwn(TABLE_OWNERS, name)))];
}

const CLOCK = 'src/common/clock/clock.ts';
const JOSE = 'src/common/jwt/jose.ts';
/** Migrations are the schema's history: what they once ran is not rewritten. */
const isMigration = (path: string) => path.startsWith('src/database/migrations/');

describe('ARCHITECTURE.md, checked', () => {
  it('writes audit lines only through AuditLog', () => {
    expect(where((text) => /Logger\(\s*['"]Audit['"]/.test(text))).toEqual([
      'src/common/logging/audit-log.ts',
    ]);
  });

  it('takes every time from the Clock: no now() in SQL, no database-stamped columns', () => {
    // PostgreSQL's clocks in any case; `clock.now()` and `performance.now()` (a method, after a
    // dot) are the Clock and a duration, not SQL.
    const sqlNow = new RegExp(
      [
        String.raw`(?<![.\w$])now\s*\(\s*\)|\bpg_catalog\.now\s*\(`,
        String.raw`\b(?:current_timestamp|current_date|current_time|localtimestamp|localtime)\b`,
        String.raw`\b(?:transaction_timestamp|statement_timestamp|clock_timestamp|timeofday)\s*\(`,
        'CreateDateColumn|UpdateDateColumn',
      ].join('|'),
      'i',
    );
    const offenders = where(
      (text, path) => !isMigration(path) && path !== CLOCK && sqlNow.test(text),
    );
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
      'src/auth/sign-in/id-token.verifier.ts',
      'src/device/registry/device-key.ts',
      'src/device/tokens/device-assertion.verifier.ts',
    ]);
  });

  it("names in SQL only its own feature's tables (database/table-owners.ts)", () => {
    const named = scanned().flatMap((f) =>
      isMigration(f.path) ? [] : tablesNamed(f.text).map((table) => ({ ...f, table })),
    );
    // Today a dozen files in five features write SQL; far fewer means the search is broken.
    expect(new Set(named.map((n) => n.path)).size).toBeGreaterThanOrEqual(10);
    const foreign = named.filter((n) => !mayUseTable(folderOf(n.path), n.table));
    expect(foreign.map((n) => `${n.path}: ${n.table}`)).toEqual([]);
  });

  it("declares each table's entity in the owner's folder, and the registry has every table", () => {
    const entities = scanned().flatMap((f) =>
      [...f.text.matchAll(/@Entity\(\s*\{\s*name:\s*'([a-z_0-9]+)'/g)].map((m) => ({
        path: f.path,
        table: m[1],
      })),
    );
    const owner = (table: string) => (TABLE_OWNERS as Record<string, string | undefined>)[table];
    expect(entities.length).toBeGreaterThanOrEqual(ENTITY_TABLES.length);
    expect(entities.filter((e) => owner(e.table) !== folderOf(e.path))).toEqual([]);
    const created = scanned(
      FILES.filter((f) => isMigration(f.path)),
      10,
    ).flatMap((f) => [...f.text.matchAll(/CREATE TABLE \\?"([a-z_0-9]+)\\?"/g)].map((m) => m[1]));
    expect([...new Set(created)].sort()).toEqual(Object.keys(TABLE_OWNERS).sort());
  });

  it('keeps rooms by part: no folder of src/ holds more than 25 files besides its specs', () => {
    // A folder past that splits into subfolders by part (device/tokens, subscription/shipping...).
    const perFolder = new Map<string, number>();
    for (const { path } of scanned()) {
      const folder = dirname(path);
      perFolder.set(folder, (perFolder.get(folder) ?? 0) + 1);
    }
    const crowded = [...perFolder].filter(([, count]) => count > 25);
    expect(crowded).toEqual([]);
  });

  it('shares with the console only server files that import nothing (its bundle takes them whole)', () => {
    const consoleSources = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
        e.isDirectory() ? consoleSources(join(dir, e.name)) : [join(dir, e.name)],
      );
    const shared = new Set(
      consoleSources(join(ROOT, 'console', 'src'))
        .filter((f) => /\.tsx?$/.test(f))
        .flatMap((f) =>
          [...readFileSync(f, 'utf8').matchAll(/from '((?:\.\.\/)+src\/[^']+)'/g)].map((m) =>
            relative(ROOT, join(dirname(f), `${m[1]}.ts`)),
          ),
        ),
    );
    expect(shared.size).toBeGreaterThanOrEqual(3);
    const importing = [...shared].filter((f) =>
      /^\s*(import|export .* from)\b/m.test(withoutComments(readFileSync(join(ROOT, f), 'utf8'))),
    );
    expect(importing).toEqual([]);
  });

  // Checked elsewhere, once: no module exports TypeOrmModule, forFeature asks only for the
  // module's own tables and AuditLog has one provider (app.module.spec.ts); the environment is read
  // only in config/load-env.ts (eslint no-restricted-properties).
});
