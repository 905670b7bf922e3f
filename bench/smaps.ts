import { readdirSync, readFileSync } from 'node:fs';

const ARENA_ALIGN = 64 * 1024 * 1024;

/**
 * A process's resident memory by kind of mapping, MB, from /proc/<pid>/smaps: file-backed (the
 * node binary and libraries), glibc's main heap (`[heap]`), glibc's thread arenas (anonymous
 * mappings that start on a 64 MB boundary, as glibc places them), the rest of the anonymous
 * memory (V8's heap pages, code, its compiler zones when mmapped, thread stacks), and the threads.
 */
export function smapsKinds(pid: number): string {
  const kb = { file: 0, brk: 0, arenas: 0, anon: 0 };
  let arenaCount = 0;
  let kind: keyof typeof kb = 'anon';
  for (const line of readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) (\S+) \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      const start = parseInt(head[1], 16);
      const path = head[4];
      if (path.startsWith('/')) kind = 'file';
      else if (path === '[heap]') kind = 'brk';
      else if (path === '' && head[3] === 'rw-p' && start % ARENA_ALIGN === 0) {
        kind = 'arenas';
        arenaCount++;
      } else kind = 'anon';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kb[kind] += Number(rss[1]);
  }
  const mb = (n: number) => (n / 1024).toFixed(0);
  const threads = readdirSync(`/proc/${pid}/task`).length;
  return (
    `file ${mb(kb.file)} brk ${mb(kb.brk)} arenas ${mb(kb.arenas)} (${arenaCount}) ` +
    `anon ${mb(kb.anon)} threads ${threads}`
  );
}
