// `node -r ./bench/mem-stats.js ...` for bench/rss-climb.ts: every MEM_STATS_MS (default 500) one
// JSON line to MEM_STATS_FILE with what V8 can say about the process's memory (its heap spaces,
// its own malloced memory, code), so the harness can set it beside /proc's view of the same moment.
// A diagnostic only: an unref'd timer, nothing the service's code sees.
const { appendFileSync } = require('node:fs');
const v8 = require('node:v8');
const file = process.env.MEM_STATS_FILE;
if (!file) throw new Error('MEM_STATS_FILE is required');
const MB = 1024 * 1024;
const mb = (n) => Math.round((n / MB) * 10) / 10;

function line() {
  const m = process.memoryUsage();
  const h = v8.getHeapStatistics();
  const c = v8.getHeapCodeStatistics();
  const spaces = {};
  for (const s of v8.getHeapSpaceStatistics()) {
    spaces[s.space_name.replace(/_space$/, '')] = {
      size: mb(s.space_size),
      used: mb(s.space_used_size),
      physical: mb(s.physical_space_size),
    };
  }
  return {
    t: Date.now(),
    rss: mb(m.rss),
    heapTotal: mb(m.heapTotal),
    heapUsed: mb(m.heapUsed),
    external: mb(m.external),
    arrayBuffers: mb(m.arrayBuffers),
    physical: mb(h.total_physical_size),
    malloced: mb(h.malloced_memory),
    peakMalloced: mb(h.peak_malloced_memory),
    code: mb(c.code_and_metadata_size),
    bytecode: mb(c.bytecode_and_metadata_size),
    scriptSource: mb(c.external_script_source_size),
    spaces,
  };
}

// SIGWINCH (under --expose-gc): a full collection, then one line marked `gc` with what it left and
// the bytes of source of every CommonJS module loaded (each module's source stays on the heap).
// With MEM_STATS_SNAPSHOT=<file>, a heap snapshot of what the collection left is written there first
// (what retains the heap: open it in DevTools' Memory tab or any .heapsnapshot reader).
process.on('SIGWINCH', () => {
  if (typeof global.gc === 'function') global.gc();
  if (process.env.MEM_STATS_SNAPSHOT) v8.writeHeapSnapshot(process.env.MEM_STATS_SNAPSHOT);
  const { statSync } = require('node:fs');
  let sourceBytes = 0;
  const byPackage = {};
  for (const f of Object.keys(require.cache)) {
    const size = statSync(f).size;
    sourceBytes += size;
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(f);
    const key = m ? m[1] : 'app';
    byPackage[key] = (byPackage[key] || 0) + size;
  }
  const top = Object.entries(byPackage)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 25)
    .map(([k, v]) => `${k} ${mb(v)}`);
  const modules = { count: Object.keys(require.cache).length, sourceMb: mb(sourceBytes), top };
  appendFileSync(file, `${JSON.stringify({ gc: true, ...line(), modules })}\n`);
});

setInterval(
  () => appendFileSync(file, `${JSON.stringify(line())}\n`),
  Number(process.env.MEM_STATS_MS || 500),
).unref();
