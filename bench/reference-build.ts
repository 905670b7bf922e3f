/**
 * The bench's yardstick (bench/bare-nest.ts) compiled to JavaScript once per run, as the service
 * runs from dist/: through ts-node its process would hold the TypeScript compiler, about 37 MB of
 * resident memory and a bigger heap for its collector to walk. Transpiled only (types are lint's
 * and the build's business).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { productionCommand } from './service-env';

const ROOT = join(__dirname, '..');
const OUT = join(__dirname, '.reference');

/**
 * The bare Nest app's command line, compiled once: under the service's own node flags (its heap
 * settings), so the collectors' work compares alike.
 */
export function referenceArgs(): string[] {
  compileOnce();
  return [...productionCommand().args, join(OUT, 'bench', 'bare-nest.js')];
}

let compiled = false;
function compileOnce(): void {
  if (compiled) return;
  const tsc = require.resolve('typescript/bin/tsc');
  const flags = [
    '--ignoreConfig',
    ...['--rootDir', ROOT, '--outDir', OUT, '--target', 'es2023'],
    ...['--module', 'nodenext', '--moduleResolution', 'nodenext', '--types', 'node'],
    ...['--experimentalDecorators', '--emitDecoratorMetadata', '--esModuleInterop'],
    ...['--resolveJsonModule', '--skipLibCheck', '--noCheck'],
  ];
  const files = [join(ROOT, 'bench/bare-nest.ts')];
  const run = spawnSync(process.execPath, [tsc, ...flags, ...files], { stdio: 'inherit' });
  if (run.status !== 0) throw new Error('compiling the bench references failed');
  compiled = true;
}
