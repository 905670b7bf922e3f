import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { ErrorCode } from '../../src/common/errors/error-code.enum';

/* What the API document may list for an operation: the codes its feature can raise. */

const SRC = join(__dirname, '..', '..', 'src');

/** Every .ts file of src/, for finding a controller's feature folder. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sourceFiles(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

/** The feature folder a file sits in (its first folder under src/, subfolders included). */
const featureOf = (file: string): string => relative(SRC, file).split(sep)[0];

/** The codes the controller's feature raises: `ErrorCode.X` in its folder, outside controllers. */
export function codesRaisedBy(controllerName: string): Set<ErrorCode> {
  const files = sourceFiles(SRC).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));
  const home = files.find((f) => readFileSync(f, 'utf8').includes(`class ${controllerName} `));
  if (!home) throw new Error(`no source file declares ${controllerName}`);
  const own = files.filter(
    (f) => featureOf(f) === featureOf(home) && !f.endsWith('.controller.ts'),
  );
  const text = own.map((f) => readFileSync(f, 'utf8')).join('\n');
  const names = Object.entries(ErrorCode) as [string, ErrorCode][];
  const raised = names.filter(([name]) => text.includes(`ErrorCode.${name}`)).map(([, c]) => c);
  return new Set([...raised, ...uniqueIndexCodes(text + entitiesWritten(own))]);
}

/** Entities of another feature that these files use (users/ writes auth/'s account rows). */
function entitiesWritten(featureFiles: string[]): string {
  const entities = new Set<string>();
  for (const file of featureFiles) {
    for (const m of readFileSync(file, 'utf8').matchAll(
      /from '((?:\.\.\/)+[\w-]+\/[\w.-]+\.entity)'/g,
    )) {
      entities.add(join(dirname(file), `${m[1]}.ts`));
    }
  }
  return [...entities].map((f) => readFileSync(f, 'utf8')).join('\n');
}

/**
 * A value already taken is decided by a unique index, whose violation database-errors.ts maps to
 * a code by the index's name (`conflict` for the others): a feature gives the codes of its indexes.
 */
function uniqueIndexCodes(featureText: string): ErrorCode[] {
  const table = readFileSync(join(SRC, 'common', 'errors', 'database-errors.ts'), 'utf8');
  const indexes = [...featureText.matchAll(/@Index\('(UQ_\w+)'/g)].map((m) => m[1]);
  return indexes.map((index) => {
    const mapped = new RegExp(`${index}: \\[\\s*ErrorCode\\.(\\w+)`).exec(table)?.[1];
    return mapped ? ErrorCode[mapped as keyof typeof ErrorCode] : ErrorCode.Conflict;
  });
}
