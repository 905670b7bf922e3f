import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { Type } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { getRepositoryToken, TypeOrmModule } from '@nestjs/typeorm';
import { getMetadataArgsStorage } from 'typeorm';
import { AuditLog } from './common/logging/audit-log';
import { ENTITY_TABLES, mayUseTable } from './database/table-owners';

/** Every `*.module.ts` under src/, by path relative to src/. */
function moduleFiles(dir = __dirname): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return moduleFiles(path);
    return entry.name.endsWith('.module.ts') ? [relative(__dirname, path)] : [];
  });
}

/** As many as there are today, less a margin: fewer means the search looks in the wrong place. */
const AT_LEAST_MODULE_FILES = 25;
const AT_LEAST_FOR_FEATURE = 8;

const files = moduleFiles();
/** The file each class exported by a module file comes from. */
const FILE_OF = new Map<unknown, string>(
  files.flatMap((file) =>
    Object.values(jest.requireActual<object>(`./${file}`))
      .filter((value): value is Type => typeof value === 'function')
      .map((cls): [Type, string] => [cls, file]),
  ),
);

/** A module as Nest holds it (its class is not exported from @nestjs/core's entry). */
type Module = NonNullable<ReturnType<ModulesContainer['get']>>;

interface ModuleOfFile {
  file: string;
  feature: string;
  module: Module;
}

/**
 * Every module of src/, as Nest itself holds it: the module files' classes imported into one
 * testing module, compiled in preview mode (the graph only: no provider is made, so no database).
 */
async function loadModules(): Promise<ModuleOfFile[]> {
  const roots = [...FILE_OF.keys()].filter((cls) => (cls as Type).name.endsWith('Module'));
  const ref = await Test.createTestingModule({ imports: roots as Type[] }).compile({
    preview: true,
  });
  // Not closed: preview mode made no instance, so there is nothing to stop (and closing would
  // run the providers' shutdown hooks on objects that were never built).
  return [...ref.get(ModulesContainer).values()].flatMap((module) => {
    const file = FILE_OF.get(module.metatype);
    return file ? [{ file, feature: file.split('/')[0], module }] : [];
  });
}

const typeOrmImports = (module: Module) =>
  [...module.imports].filter((imported) => imported.metatype === TypeOrmModule);

/** The table behind each repository token, from the entities the modules loaded. */
const TABLE_OF_TOKEN = new Map(
  getMetadataArgsStorage()
    .tables.filter((t) => typeof t.target === 'function')
    .map((t) => [getRepositoryToken(t.target as () => unknown), t.name]),
);

/**
 * Features own their data (ARCHITECTURE.md): a module keeps its repositories to itself and offers
 * services, so no module re-exports TypeOrmModule (which would hand its repositories to importers),
 * and a module asks `forFeature` only for its own feature's tables (database/table-owners.ts).
 */
describe('modules', () => {
  let modules: ModuleOfFile[];
  beforeAll(async () => {
    modules = await loadModules();
  });

  it('finds the feature modules', () => {
    expect(files.length).toBeGreaterThanOrEqual(AT_LEAST_MODULE_FILES);
    expect(files).toEqual(expect.arrayContaining(['org/org.module.ts', 'app.module.ts']));
    expect(new Set(modules.map((m) => m.file)).size).toBeGreaterThanOrEqual(AT_LEAST_MODULE_FILES);
  });

  it('exports no TypeOrmModule', () => {
    const exporting = modules.filter(({ module }) => module.exports.has(TypeOrmModule));
    expect(exporting.map(({ file, module }) => `${file}: ${module.name}`)).toEqual([]);
  });

  it("asks forFeature only for its own feature's tables", () => {
    // A forFeature module's string tokens are its repositories; the rest are Nest's own classes.
    const uses = modules.flatMap(({ file, feature, module }) =>
      typeOrmImports(module)
        .flatMap((typeorm) => [...typeorm.providers.keys()])
        .filter((token) => typeof token === 'string')
        .map((token) => ({ file, feature, table: TABLE_OF_TOKEN.get(token) })),
    );
    expect(uses.length).toBeGreaterThanOrEqual(AT_LEAST_FOR_FEATURE);
    const foreign = uses.filter((u) => u.table === undefined || !mayUseTable(u.feature, u.table));
    expect(foreign.map((u) => `${u.file}: ${u.table ?? 'an entity without a table name'}`)).toEqual(
      [],
    );
  });

  it('maps every entity to a table in the registry, and every table to an entity', () => {
    const tables = [...TABLE_OF_TOKEN.values()];
    expect(tables.length).toBeGreaterThanOrEqual(ENTITY_TABLES.length);
    expect([...new Set(tables)].sort()).toEqual([...ENTITY_TABLES].sort());
  });

  it('provides AuditLog in one module, which the others import', () => {
    const providing = modules.filter(({ module }) => module.providers.has(AuditLog));
    expect(providing.map(({ module }) => module.name)).toEqual(['AuditLogModule']);
  });
});
