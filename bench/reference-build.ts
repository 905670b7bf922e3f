/**
 * The bench's yardstick (bench/bare-nest.ts) compiled to JavaScript once per run, as the service
 * runs from dist/: through ts-node its process held the TypeScript compiler, about 37 MB of
 * resident memory and a bigger heap for its collector to walk, which the yardstick must not carry. Transpiled only (types are lint's and the build's business).
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
/** Under bench/, so the profile's layers count the references' frames as the app's own code. */
const OUT = join(__dirname, '.reference');

/** Compiles the bare Nest app and answers the script to run. */
export function referenceScript(): string {
  compileOnce();
  return join(OUT, 'bench', 'bare-nest.js');
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
