// Prints one line per Jest JSON report and a closing total: "N passed, N failed".
const { readFileSync } = require('node:fs');
const { basename } = require('node:path');

let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of process.argv.slice(2)) {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  passed += r.numPassedTests;
  failed += r.numFailedTests;
  skipped += r.numPendingTests;
  console.log(`${basename(file, '.json')}: ${r.numPassedTests} passed, ${r.numFailedTests} failed`);
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exitCode = failed > 0 || passed === 0 ? 1 : 0;
