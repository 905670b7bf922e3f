// Runs before `npm start` and `npm test`: prints the Node that runs the npm scripts and stops with
// a clear message when it is not the line package.json's engines name (e.g. the project's own Node
// was not installed, so the machine's older one answered). Plain CommonJS: it must run on any Node.
const { engines } = require('../package.json');

const wanted = /^\^(\d+)\.(\d+)/.exec(engines.node);
const [major, minor] = process.versions.node.split('.').map(Number);
console.log(`Node ${process.version} (${process.execPath})`);
if (!wanted)
  throw new Error(`engines.node is "${engines.node}": expected a caret range (^24.11.0)`);
if (major !== Number(wanted[1]) || minor < Number(wanted[2])) {
  console.error(
    `This project runs on Node ${engines.node} (package.json engines), not ${process.version}. ` +
      'npm scripts use the devDependency `node`: run `npm ci` (without --ignore-scripts), ' +
      'or switch to the version in .nvmrc.',
  );
  process.exit(1);
}
