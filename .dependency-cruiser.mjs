// @ts-check
/**
 * Import directions of src/, checked by `npm run lint` (depcruise). The layers are read from
 * ARCHITECTURE.md's table "Folders and what each may import", the one place they are written: a
 * folder imports its own files and the folders of lower layers, never one of its own layer or
 * above, so no two folders can import each other, however far round.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const HEADING = '## Folders and what each may import';
/** The sentence under the table that says which layers hold the features. */
const FEATURE_LAYERS = /Layers (\d+) to (\d+) hold the features/;
const PUBLIC_FILES = "A feature's **public files**:";
/** The root files of src/ (main.ts, cli.ts, app.module.ts, ...), a member of the top layer. */
const ROOT_FILES = '*.ts';

/**
 * The table's rows, top first (`| 9     | `cli/` | what they are |`), as `{ layer, members }`.
 * @param {string} markdown
 * @returns {{ layer: number, members: string[] }[]}
 */
function readLayers(markdown) {
  const section = markdown.split(HEADING)[1]?.split('\n## ')[0];
  if (!section) throw new Error(`ARCHITECTURE.md has no "${HEADING}" section`);
  const rows = section
    .split('\n')
    .filter((line) => /^\|\s*\d+/.test(line))
    .map((line) => {
      const [layer, members] = line.split('|').slice(1, 3);
      const names = [...members.matchAll(/`([^`]+)`/g)].map((m) => m[1]);
      return {
        layer: Number.parseInt(layer, 10),
        members: names.filter((n) => n === ROOT_FILES || /^[a-z-]+\/$/.test(n)),
      };
    });
  if (rows.length === 0) throw new Error(`ARCHITECTURE.md's "${HEADING}" has no layer rows`);
  return rows;
}

/**
 * Every top-level folder of src/ sits in exactly one layer, and the root files in the top one:
 * a folder added without its row fails the lint instead of escaping the rule.
 * @param {{ layer: number, members: string[] }[]} layers
 * @param {string} srcDir
 */
function checkLayersCover(layers, srcDir) {
  const listed = layers.flatMap((l) => l.members);
  const folders = readdirSync(srcDir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => `${e.name}/`);
  const missing = [...folders, ROOT_FILES].filter((f) => !listed.includes(f));
  const twice = listed.filter((f, i) => listed.indexOf(f) !== i);
  const gone = listed.filter((f) => f !== ROOT_FILES && !folders.includes(f));
  if (missing.length + twice.length + gone.length > 0) {
    throw new Error(
      `ARCHITECTURE.md's layer table must name each folder of src/ once: missing ${missing.join(' ') || '-'}; twice ${twice.join(' ') || '-'}; no such folder ${gone.join(' ') || '-'}`,
    );
  }
}

const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** The path pattern of a layer member: a folder of src/, or a file at src/'s root. */
const pathOf = (member) =>
  member === ROOT_FILES ? String.raw`^src/[^/]+\.ts$` : `^src/${escape(member)}`;

/**
 * One rule per member: nothing of its own layer (but itself) or above.
 * @param {{ layer: number, members: string[] }[]} layers
 * @returns {import('dependency-cruiser').IForbiddenRuleType[]}
 */
function layerRules(layers) {
  const all = layers.flatMap((l) => l.members.map((member) => ({ layer: l.layer, member })));
  return all.flatMap(({ layer, member }) => {
    const notBelow = all.filter((o) => o.layer >= layer && o.member !== member);
    if (notBelow.length === 0) return [];
    const below = all.filter((o) => o.layer < layer).map((o) => o.member);
    return [
      {
        name: `layers/${member === ROOT_FILES ? 'root' : member.slice(0, -1)}`,
        severity: 'error',
        comment: `src/${member === ROOT_FILES ? '*.ts' : member} (layer ${layer}) imports only the layers below it (${below.join(' ') || 'nothing of ours'}): ARCHITECTURE.md, "Folders and what each may import".`,
        from: { path: pathOf(member) },
        to: { path: notBelow.map((o) => pathOf(o.member)) },
      },
    ];
  });
}

/**
 * The public files ARCHITECTURE.md lists (`*.module.ts`, ..., `audit/audit-event-view.dto.ts`),
 * as path patterns: a suffix for a `*` pattern, the exact file for a path.
 * @param {string} markdown
 * @returns {string[]}
 */
function readPublicFiles(markdown) {
  const list = markdown.split(PUBLIC_FILES)[1]?.split('Everything else')[0];
  if (!list) throw new Error(`ARCHITECTURE.md has no "${PUBLIC_FILES}" list`);
  return [...list.matchAll(/`([^`]+)`/g)].map(([, file]) =>
    file.startsWith('*') ? `${escape(file.slice(1))}$` : `^src/${escape(file)}$`,
  );
}

/**
 * A feature reaches another only through its public files.
 * @param {string} markdown
 * @param {{ layer: number, members: string[] }[]} layers
 * @param {string[]} publicFiles
 * @returns {import('dependency-cruiser').IForbiddenRuleType}
 */
function publicFilesRule(markdown, layers, publicFiles) {
  const [lowest, highest] = (FEATURE_LAYERS.exec(markdown) ?? []).slice(1).map(Number);
  if (lowest === undefined) throw new Error(`ARCHITECTURE.md does not say ${FEATURE_LAYERS}`);
  const features = layers
    .filter((l) => l.layer >= lowest && l.layer <= highest)
    .flatMap((l) => l.members)
    .map((m) => escape(m.slice(0, -1)));
  const feature = `^src/(${features.join('|')})/`;
  return {
    name: 'feature-public-files',
    severity: 'error',
    comment: `A feature reaches another only through its public files (ARCHITECTURE.md: ${publicFiles.join(' ')}).`,
    from: { path: feature },
    to: { path: feature, pathNot: ['^src/$1/', ...publicFiles] },
  };
}

/** The rules of a source tree whose layer table is `markdown`, its src/ at `srcDir`. */
function rulesFor(markdown, srcDir) {
  const layers = readLayers(markdown);
  checkLayersCover(layers, srcDir);
  return [
    ...layerRules(layers),
    publicFilesRule(markdown, layers, readPublicFiles(markdown)),
    {
      name: 'no-test-code',
      severity: 'error',
      comment: 'Production code never imports tests, benchmarks or the development stand-ins.',
      from: { path: String.raw`^(src/|ormconfig\.ts$)` },
      to: { path: '^(test|bench|dev-fleet|dev-idp|dev-processor|dev-receiver)/' },
    },
  ];
}

const root = import.meta.dirname;

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: rulesFor(readFileSync(join(root, 'ARCHITECTURE.md'), 'utf8'), join(root, 'src')),
  options: {
    // Type-only imports count: a cycle of types is a cycle of folders all the same.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    doNotFollow: { path: 'node_modules' },
  },
};
