import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { DynamicModule, Provider } from '@nestjs/common';
import { MODULE_METADATA } from '@nestjs/common/constants';
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

const isTypeOrm = (value: unknown): value is DynamicModule =>
  value === TypeOrmModule ||
  (typeof value === 'object' &&
    value !== null &&
    (value as { module?: unknown }).module === TypeOrmModule);

const files = moduleFiles();
/** Every module class, with the file and the feature (its folder under src/) it is in. */
const MODULES = files.flatMap((file) =>
  Object.values(jest.requireActual<object>(`./${file}`))
    .filter((value): value is { name: string } => typeof value === 'function')
    .filter((cls) => Object.values(MODULE_METADATA).some((key) => Reflect.hasMetadata(key, cls)))
    .map((cls) => ({ file, feature: file.split('/')[0], cls })),
);
const metadata = (cls: object, key: string) => (Reflect.getMetadata(key, cls) ?? []) as unknown[];
const tokenOf = (provider: Provider) =>
  typeof provider === 'object' && 'provide' in provider ? provider.provide : provider;

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
  it('finds the feature modules', () => {
    expect(files.length).toBeGreaterThanOrEqual(AT_LEAST_MODULE_FILES);
    expect(files).toEqual(expect.arrayContaining(['org/org.module.ts', 'app.module.ts']));
  });

  it.each(files)('%s exports no TypeOrmModule', (file) => {
    for (const { cls } of MODULES.filter((m) => m.file === file)) {
      const exported = metadata(cls, MODULE_METADATA.EXPORTS);
      expect(exported.filter(isTypeOrm).map(() => `${file}: ${cls.name}`)).toEqual([]);
    }
  });

  it("asks forFeature only for its own feature's tables", () => {
    const uses = MODULES.flatMap(({ file, feature, cls }) =>
      metadata(cls, MODULE_METADATA.IMPORTS)
        .filter(isTypeOrm)
        .flatMap((typeorm) => (typeorm.providers ?? []).map(tokenOf))
        .map((token) => ({ file, feature, table: TABLE_OF_TOKEN.get(token as string) })),
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
    const providing = MODULES.filter(({ cls }) =>
      metadata(cls, MODULE_METADATA.PROVIDERS).some((p) => tokenOf(p as Provider) === AuditLog),
    );
    expect(providing.map(({ cls }) => cls.name)).toEqual(['AuditLogModule']);
  });
});
