// `node -r ./bench/heap-sample.js ...` for bench:profile-diff --alloc: V8's sampling heap profiler,
// through an in-process inspector session rather than `--heap-prof`, because only the protocol can
// keep the samples of objects already collected (`--heap-prof` reports what is still alive at
// exit, not what was allocated). Each SIGWINCH toggles it: the first starts a window (writing
// `<n>.started` to HEAP_SAMPLE_DIR), the next stops it and writes `<n>.heapprofile`. SIGWINCH,
// not SIGUSR2: Nest's enableShutdownHooks (the bare app's) closes the app on SIGUSR2.
const { Session } = require('node:inspector');
const { renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const dir = process.env.HEAP_SAMPLE_DIR;
if (!dir) throw new Error('HEAP_SAMPLE_DIR is required');
const interval = Number(process.env.HEAP_SAMPLE_INTERVAL || 16384);
const session = new Session();
session.connect();
let n = 0;
let on = false;
// Written aside, then renamed: the harness polls for the file and must never read half of it.
const write = (name, text) => {
  writeFileSync(join(dir, `${name}.tmp`), text);
  renameSync(join(dir, `${name}.tmp`), join(dir, name));
};
process.on('SIGWINCH', () => {
  if (!on) {
    on = true;
    n += 1;
    const params = {
      samplingInterval: interval,
      includeObjectsCollectedByMajorGC: true,
      // Survivors mode keeps only objects that outlived a scavenge: what the young generation
      // copies and promotes, the work that grows with what a request keeps alive.
      includeObjectsCollectedByMinorGC: process.env.HEAP_SAMPLE_SURVIVORS !== 'on',
    };
    session.post('HeapProfiler.startSampling', params, (err) => {
      if (err) throw err;
      write(`${n}.started`, '');
    });
    return;
  }
  on = false;
  session.post('HeapProfiler.stopSampling', (err, res) => {
    if (err) throw err;
    write(`${n}.heapprofile`, JSON.stringify(res.profile));
  });
});
