/**
 * bench:syscalls' reading of an `strace -ff -yy -s 0` trace (one file per thread): system calls by
 * name, on the main thread and on the others; reads and writes by file descriptor kind, with their
 * bytes; all per request (per second for the idle window). And its markdown.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** What tells the sockets apart: the server's own port, PostgreSQL's, the fake processor's. */
export interface Ports {
  client: number;
  db: number;
  processor: number;
}

export interface Io {
  calls: number;
  bytes: number;
  /** writev's buffers, summed (how many pieces one write gathered). */
  buffers: number;
}

export interface Census {
  /** Requests traced, or seconds for the idle window. */
  per: number;
  calls: Map<string, { main: number; other: number }>;
  /** Keyed `<fd kind> <syscall>`. */
  io: Map<string, Io>;
}

const WRITES = new Set(['write', 'writev', 'pwrite64', 'pwritev', 'sendto', 'sendmsg']);
const READS = new Set(['read', 'readv', 'pread64', 'recvfrom', 'recvmsg']);
// name(fd<annotation>, ...) = result; the annotation nests <...> and holds "->".
const LINE = /^(\w+)\((?:(\d+)<((?:->|<[^<>]*>|[^<>])*)>)?(.*)\) += (-?\d+|0x[0-9a-f]+|\?)/;
const TCP = /^TCP(?:v6)?:\[(?:.*):(\d+)->(?:.*):(\d+)\]$/;

function fdKind(fd: number, note: string, ports: Ports): string {
  const tcp = TCP.exec(note);
  if (tcp) {
    const [local, remote] = [Number(tcp[1]), Number(tcp[2])];
    if (local === ports.client) return 'client';
    if (remote === ports.db) return 'postgres';
    if (remote === ports.processor) return 'processor';
    return 'tcp';
  }
  if (fd === 1) return 'stdout';
  if (fd === 2) return 'stderr';
  const anon = /^anon_inode:\[?(\w+)/.exec(note);
  if (anon) return anon[1];
  return note.split(':')[0] || 'other';
}

export function tally(dir: string, pid: number, ports: Ports, per: number): Census {
  const c: Census = { per, calls: new Map(), io: new Map() };
  for (const file of readdirSync(dir)) {
    const main = file === `t.${pid}`;
    for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
      const m = LINE.exec(line);
      if (!m) continue;
      const [, call, fd, note, rest, result] = m;
      // A poll that may not wait: the loop had work queued (setImmediate, a due timer).
      const name = call === 'epoll_pwait' && /, 0, NULL, \d+$/.test(rest) ? `${call} (0 ms)` : call;
      const n = c.calls.get(name) ?? { main: 0, other: 0 };
      n[main ? 'main' : 'other']++;
      c.calls.set(name, n);
      if (fd === undefined || !(WRITES.has(name) || READS.has(name))) continue;
      const key = `${fdKind(Number(fd), note, ports)} ${name}`;
      const io = c.io.get(key) ?? { calls: 0, bytes: 0, buffers: 0 };
      io.calls++;
      io.bytes += Math.max(0, Number(result) || 0);
      if (name === 'writev') io.buffers += Number(/, (\d+)$/.exec(rest)?.[1] ?? 0);
      c.io.set(key, io);
    }
  }
  return c;
}

const f = (x: number, digits = 2) => (x === 0 ? '–' : x.toFixed(digits));

function callsTable(s: Census, b: Census): string[] {
  const names = [...new Set([...s.calls.keys(), ...b.calls.keys()])];
  const total = (c: Census, k: string) =>
    (c.calls.get(k)?.main ?? 0) + (c.calls.get(k)?.other ?? 0);
  names.sort(
    (x, y) => total(s, y) / s.per + total(b, y) / b.per - total(s, x) / s.per - total(b, x) / b.per,
  );
  const rows = names.map((k) => {
    const [sc, bc] = [s.calls.get(k), b.calls.get(k)];
    const cells = [sc?.main, sc?.other, bc?.main, bc?.other].map((v, i) =>
      f((v ?? 0) / (i < 2 ? s.per : b.per)),
    );
    return `| ${k} | ${cells.join(' | ')} |`;
  });
  return [
    '| syscall | service main | service other threads | bare main | bare other threads |',
    '| --- | ---: | ---: | ---: | ---: |',
    ...rows,
  ];
}

function ioTable(s: Census, b: Census): string[] {
  const keys = [...new Set([...s.io.keys(), ...b.io.keys()])].sort();
  const cells = (c: Census, k: string) => {
    const io = c.io.get(k);
    if (!io) return ['–', '–', '–'];
    const buffers = io.buffers ? f(io.buffers / io.calls, 1) : '–';
    return [f(io.calls / c.per), f(io.bytes / c.per, 0), buffers];
  };
  return [
    '| fd kind, syscall | service calls | service bytes | buffers/writev | bare calls | bare bytes | buffers/writev |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...keys.map((k) => `| ${k} | ${[...cells(s, k), ...cells(b, k)].join(' | ')} |`),
  ];
}

export function censusMarkdown(
  routes: string[],
  results: Map<string, Census>,
  meta: { command: string; loads: number[][]; requests: number; connections: number },
): string {
  const load = (l: number[]) => l.map((x) => x.toFixed(2)).join(' / ');
  const out = [
    `# System calls per request, service and bare Nest app, ${new Date().toISOString()}`,
    '',
    `\`${meta.command}\`: per route ${meta.requests} requests at ${meta.connections} connections ` +
      `after as many unmeasured, under \`strace -f\`; idle: per second. Load average ` +
      `${load(meta.loads[0])} at the start, ${load(meta.loads[1])} at the end.`,
  ];
  for (const route of routes) {
    const [s, b] = [results.get(`service ${route}`), results.get(`bare-nest ${route}`)];
    if (!s || !b) continue;
    out.push('', `## ${route}`, '', ...callsTable(s, b), '', ...ioTable(s, b));
  }
  return `${out.join('\n')}\n`;
}
