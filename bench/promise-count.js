// `node -r ./bench/promise-count.js ...` counts the async resources the process creates, by type
// (PROMISE the most), and its garbage collections by kind with their main-thread pause; on
// SIGWINCH it writes the counts so far and the heap in use to ASYNC_COUNT_FILE as JSON with a
// sequence number, so bench:profile-diff can read them before and after a window. SIGWINCH, not
// SIGUSR2: Nest's enableShutdownHooks (the bare app's) closes the app on SIGUSR2. Only in the
// unprofiled counting pass: an init hook slows every promise (and makes each allocate more), so
// no CPU is measured with it, and ASYNC_COUNT_HOOK=off leaves it out when counting collections.
const { createHook } = require('node:async_hooks');
const { renameSync, writeFileSync } = require('node:fs');
const { constants, PerformanceObserver } = require('node:perf_hooks');
const { getHeapStatistics } = require('node:v8');
const file = process.env.ASYNC_COUNT_FILE;
if (!file) throw new Error('ASYNC_COUNT_FILE is required');
const counts = Object.create(null);
const bump = (key, n) => (counts[key] = (counts[key] || 0) + n);
if (process.env.ASYNC_COUNT_HOOK !== 'off') {
  createHook({ init: (_id, type) => bump(type, 1) }).enable();
}
const KINDS = {
  [constants.NODE_PERFORMANCE_GC_MINOR]: 'gc scavenge',
  [constants.NODE_PERFORMANCE_GC_MAJOR]: 'gc mark-compact',
  [constants.NODE_PERFORMANCE_GC_INCREMENTAL]: 'gc incremental marking',
  [constants.NODE_PERFORMANCE_GC_WEAKCB]: 'gc weak callbacks',
};
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    bump(KINDS[e.detail.kind] || 'gc other', 1);
    bump('gc pause µs', e.duration * 1000);
  }
}).observe({ entryTypes: ['gc'] });
let seq = 0;
process.on('SIGWINCH', () => {
  seq += 1;
  const heapUsedMb = getHeapStatistics().used_heap_size / 2 ** 20;
  // Written aside, then renamed: the harness polls the file and must never read half of it.
  writeFileSync(`${file}.tmp`, JSON.stringify({ seq, counts, heapUsedMb }));
  renameSync(`${file}.tmp`, file);
});
