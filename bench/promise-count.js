// `node -r ./bench/promise-count.js ...` counts the async resources the process creates, by type
// (PROMISE the most), and on SIGWINCH writes the counts so far to ASYNC_COUNT_FILE as JSON with a
// sequence number, so bench:profile-diff can read them before and after a window. SIGWINCH, not
// SIGUSR2: Nest's enableShutdownHooks (the bare app's) closes the app on SIGUSR2. Only in the
// unprofiled counting pass: an init hook slows every promise, so no CPU is measured with it.
const { createHook } = require('node:async_hooks');
const { renameSync, writeFileSync } = require('node:fs');
const file = process.env.ASYNC_COUNT_FILE;
if (!file) throw new Error('ASYNC_COUNT_FILE is required');
const counts = Object.create(null);
createHook({
  init(_id, type) {
    counts[type] = (counts[type] || 0) + 1;
  },
}).enable();
let seq = 0;
process.on('SIGWINCH', () => {
  seq += 1;
  // Written aside, then renamed: the harness polls the file and must never read half of it.
  writeFileSync(`${file}.tmp`, JSON.stringify({ seq, counts }));
  renameSync(`${file}.tmp`, file);
});
