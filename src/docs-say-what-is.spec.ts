import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The docs and the source say what is, and why; the history of how it came to be lives in git and
 * in the decision records (docs/decisions/, which this leaves alone). So no README, ARCHITECTURE.md,
 * docs page, source, test or bench file (comments included) cites an issue or compares itself with an
 * earlier state.
 */
const ROOT = join(__dirname, '..');

/** Files under dir (not its subfolders when shallow) whose name ends with ext. */
function filesIn(dir: string, ext: string, deep: boolean): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    // Dot folders hold build output (bench/.reference), not what anyone wrote.
    if (entry.isDirectory())
      return deep && !entry.name.startsWith('.') ? filesIn(path, ext, deep) : [];
    return entry.name.endsWith(ext) ? [path] : [];
  });
}

const FILES = [
  join(ROOT, 'README.md'),
  join(ROOT, 'ARCHITECTURE.md'),
  ...filesIn(join(ROOT, 'docs'), '.md', false),
  ...filesIn(__dirname, '.ts', true),
  ...filesIn(join(ROOT, 'test'), '.ts', true),
  ...filesIn(join(ROOT, 'bench'), '.ts', true),
].map((path) => relative(ROOT, path));

/** As many files as there are today, less a margin: fewer means the search looks elsewhere. */
const AT_LEAST_FILES = 400;

/** Phrases that narrate history: an issue's number, or a comparison with an earlier state. */
const HISTORY = [
  /\bissues? ?#?\d+/i,
  /(^|[\s(])#\d+\b/,
  /\b(as|than) before\b/i,
  /\b(last|previous) round\b/i,
];

/** Each line of each file that matches one of the phrases, as `path:line: text`. */
function narrations(patterns: RegExp[]): string[] {
  return FILES.flatMap((path) =>
    readFileSync(join(ROOT, path), 'utf8')
      .split('\n')
      .flatMap((line, i) =>
        patterns.some((p) => p.test(line)) ? [`${path}:${i + 1}: ${line.trim()}`] : [],
      ),
  );
}

describe('docs and source say what is', () => {
  it('reads the README, ARCHITECTURE.md, docs/ and src/', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(AT_LEAST_FILES);
    expect(FILES).toEqual(expect.arrayContaining(['README.md', 'docs/development.md']));
  });

  it('cite no issue number and compare with no earlier state', () => {
    expect(narrations(HISTORY)).toEqual([]);
  });

  it('finds such a phrase where there is one', () => {
    // Each planted phrase is put together here so that this file, too, passes the check above.
    const planted = [
      `set in ${'issue'} 36`,
      `see ${'#'}38`,
      `keyset pages as ${'before'}`,
      `the last ${'round'}`,
    ];
    for (const line of planted) expect(HISTORY.some((p) => p.test(line))).toBe(true);
    expect(HISTORY.some((p) => p.test('3 rounds x 5 s per endpoint, color #fff'))).toBe(false);
  });
});
