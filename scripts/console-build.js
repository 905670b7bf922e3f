// Builds the operators' console (console/) when its build is missing or older than its sources:
// `npm start` and `npm test` run it, so a fresh clone serves and tests the console with no other
// step, and a second start costs a few file stats. `npm run build` always builds it
// (`npm run build:console`). Plain CommonJS, like check-node.js.
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const built = join(root, 'console', 'dist', 'index.html');
/** What the bundle is made of: the console's own files and the server files it imports. */
const SOURCES = [
  join(root, 'console', 'src'),
  join(root, 'console', 'index.html'),
  join(root, 'console', 'vite.config.mts'),
  join(root, 'src', 'checkout', 'care-options.ts'),
  join(root, 'src', 'device', 'batch', 'device-csv.ts'),
  join(root, 'src', 'outgoing-webhook', 'outgoing-webhook.types.ts'),
  join(root, 'package-lock.json'),
];

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newest(join(path, name))));
}

const stale = !existsSync(built) || SOURCES.some((s) => newest(s) > statSync(built).mtimeMs);
if (stale) {
  console.log('Building the console (console/ → console/dist/)…');
  execFileSync('npm', ['run', '--silent', 'build:console'], { cwd: root, stdio: 'inherit' });
}
