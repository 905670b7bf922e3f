/**
 * The unprofiled pass of bench:profile-diff: per server and route, the async resources (promises
 * above all) created per request, counted by bench/promise-count.js, and the bytes of one
 * response's head and body read off a raw socket. They explain the part of the gap that the
 * profile files under node's own code (writes, microtasks): more promises, more header bytes.
 */
import { existsSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { Endpoint } from './load';
import { loadInput, runWindow } from './load-input';
import { requestsFor } from './load-requests';
import type { LoadWorker, Server } from './procs';
import type { Seeded } from './seed';

export interface Counts {
  requests: number;
  /**
   * Per request, idle background work subtracted: async resources created, by type; garbage
   * collections by kind (keys `gc ...`, counted in a run without the async hook) and their pause.
   */
  perRequest: Record<string, number>;
  /** V8's heap in use after the window (the run without the hook). */
  heapUsedMb: number;
  headerBytes: number;
  bodyBytes: number;
  /** The response's status line and header names, in order. */
  head: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Snapshot {
  seq: number;
  counts: Record<string, number>;
  heapUsedMb: number;
}

/** Counts so far: SIGWINCH asks the preload to write them; wait for its next sequence number. */
async function snapshot(server: Server, file: string): Promise<Snapshot> {
  const read = () =>
    existsSync(file)
      ? (JSON.parse(readFileSync(file, 'utf8')) as Snapshot)
      : { seq: 0, counts: {}, heapUsedMb: NaN };
  const before = read().seq;
  server.child.kill('SIGWINCH');
  for (let i = 0; i < 500; i++) {
    await sleep(10);
    const now = read();
    if (now.seq > before) return now;
  }
  throw new Error(`${server.name} did not write its async counts to ${file}`);
}

const minus = (a: Record<string, number>, b: Record<string, number>) =>
  Object.fromEntries(Object.keys(a).map((k) => [k, a[k] - (b[k] ?? 0)]));

/** One request on a raw socket: the bytes up to and including the blank line, and the body's. */
export async function responseBytes(
  url: string,
  endpoint: Endpoint,
  seeded: Seeded,
  subscription: number,
): Promise<Pick<Counts, 'headerBytes' | 'bodyBytes' | 'head'>> {
  const input = loadInput(url, endpoint, seeded, {
    seconds: 1,
    connections: 1,
    subscriptionStart: subscription,
  });
  let [req] = requestsFor(input, () => subscription);
  if (typeof req.setupRequest === 'function') req = req.setupRequest(req, {});
  const body = Buffer.from(typeof req.body === 'string' ? req.body : '');
  const { host, port } = new URL(url);
  const lines = [`${req.method ?? 'GET'} ${req.path} HTTP/1.1`, `Host: ${host}`];
  for (const [k, v] of Object.entries(req.headers ?? {})) lines.push(`${k}: ${String(v)}`);
  if (body.length) lines.push(`Content-Length: ${body.length}`);
  const raw = await exchange(
    Number(port),
    Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body]),
  );
  const end = raw.indexOf('\r\n\r\n');
  const headText = raw.subarray(0, end).toString('latin1');
  const head = headText.split('\r\n');
  const rest = raw.subarray(end + 4);
  const chunked = /^transfer-encoding:\s*chunked/im.test(headText);
  return {
    headerBytes: end + 4,
    bodyBytes: chunked ? dechunkedLength(rest) : rest.length,
    head: [head[0], ...head.slice(1).map((h) => h.slice(0, h.indexOf(':')).toLowerCase())],
  };
}

/** Sends `request`, reads until the response is complete (by Content-Length or the last chunk). */
function exchange(port: number, request: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const timer = setTimeout(() => socket.destroy(new Error('no complete response in 5 s')), 5000);
    let got = Buffer.alloc(0);
    const done = (err?: Error) => {
      clearTimeout(timer);
      socket.destroy();
      if (err) reject(err);
      else resolve(got);
    };
    socket.on('error', done);
    socket.on('data', (c: Buffer) => {
      got = Buffer.concat([got, c]);
      const end = got.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = got.subarray(0, end).toString('latin1');
      const length = /^content-length:\s*(\d+)/im.exec(head);
      const rest = got.length - end - 4;
      if (length ? rest >= Number(length[1]) : got.subarray(end).includes('\r\n0\r\n\r\n')) done();
    });
    socket.write(request);
  });
}

function dechunkedLength(chunks: Buffer): number {
  let n = 0;
  for (let at = 0; at < chunks.length;) {
    const eol = chunks.indexOf('\r\n', at);
    const size = parseInt(chunks.subarray(at, eol).toString('latin1'), 16);
    if (!size) break;
    n += size;
    at = eol + 2 + size + 2;
  }
  return n;
}

export interface CountOptions {
  worker: LoadWorker;
  seeded: Seeded;
  /** The counts file the server's preload writes. */
  file: string;
  requests: number;
  connections: number;
  /** The next unpaid subscription (webhook events), advanced by what is used. */
  next: { subscription: number };
}

export type RouteCounts = Pick<Counts, 'requests' | 'perRequest' | 'heapUsedMb'>;

/** Counts per request on one route, net of what the idle server does meanwhile. */
export async function countRoute(
  server: Server,
  endpoint: Endpoint,
  o: CountOptions,
): Promise<RouteCounts> {
  const run = (amount: number) =>
    runWindow(o.worker, server.url, endpoint, o.seeded, o.next, {
      seconds: 10,
      amount,
      connections: o.connections,
    });
  await run(Math.ceil(o.requests / 10)); // first requests: lazy set-up, not per request
  const idle0 = (await snapshot(server, o.file)).counts;
  const t0 = performance.now();
  await sleep(1000);
  const idle = minus((await snapshot(server, o.file)).counts, idle0);
  const idleMs = performance.now() - t0;
  const c0 = (await snapshot(server, o.file)).counts;
  const t1 = performance.now();
  const out = await run(o.requests);
  await sleep(100); // work a response leaves behind (a session touch, a log flush)
  const c1 = await snapshot(server, o.file);
  const windowMs = performance.now() - t1;
  if (out.requests === 0 || out.non2xx + out.errors > 0) {
    throw new Error(`${endpoint} on ${server.name}: failed requests: ${JSON.stringify(out)}`);
  }
  const grown = minus(c1.counts, c0);
  const perRequest = Object.fromEntries(
    Object.entries(grown).map(([k, v]) => {
      const background = ((idle[k] ?? 0) * windowMs) / idleMs;
      return [k, Math.max(0, v - background) / out.requests];
    }),
  );
  return { requests: out.requests, perRequest, heapUsedMb: c1.heapUsedMb };
}
