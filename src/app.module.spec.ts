import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { MODULE_METADATA } from '@nestjs/common/constants';
import { TypeOrmModule } from '@nestjs/typeorm';

/** Every `*.module.ts` under src/, by path relative to src/. */
function moduleFiles(dir = __dirname): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return moduleFiles(path);
    return entry.name.endsWith('.module.ts') ? [relative(__dirname, path)] : [];
  });
}

const isTypeOrm = (exported: unknown): boolean =>
  exported === TypeOrmModule ||
  (typeof exported === 'object' &&
    exported !== null &&
    (exported as { module?: unknown }).module === TypeOrmModule);

/**
 * Features own their data (ARCHITECTURE.md): a module keeps its repositories to itself and offers
 * services, so no module re-exports TypeOrmModule (which would hand its repositories to importers).
 */
describe('modules', () => {
  const files = moduleFiles();

  it('finds the feature modules', () => {
    expect(files).toEqual(expect.arrayContaining(['org/org.module.ts', 'app.module.ts']));
  });

  it.each(files)('%s exports no TypeOrmModule', (file) => {
    const classes = Object.values(jest.requireActual<object>(`./${file}`)).filter(
      (value): value is { name: string } => typeof value === 'function',
    );
    for (const cls of classes) {
      const exported = (Reflect.getMetadata(MODULE_METADATA.EXPORTS, cls) ?? []) as unknown[];
      expect(exported.filter(isTypeOrm).map(() => `${file}: ${cls.name}`)).toEqual([]);
    }
  });
});
