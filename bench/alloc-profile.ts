/**
 * The allocation pass of bench:profile-diff (`--alloc`): each server alone under V8's sampling
 * heap profiler (bench/heap-sample.js, objects already collected included), per route a warm-up
 * and then one sampled window of its own, so each route has its own `.heapprofile`. Each sampled
 * node's bytes (V8's estimate, scaled from the samples) go to a layer by the CPU table's rules
 * (bench/profile-layers.ts) twice: by the top frame that allocated them ("top"), and by the first
 * frame up the stack outside node's own code ("on behalf": a buffer node's http code makes for
 * express counts as express). Only node's own code with nothing else above stays node's.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Endpoint, LoadOutput } from './load';
import { classify, LAYERS, Layer, Profile, ProfileNode } from './profile-layers';
import { add, functionKey } from './profile-windows';
import type { Name } from './profile-diff-servers';
import { Server, stopServer } from './procs';

export interface HeapNode {
  id: number;
  callFrame: ProfileNode['callFrame'];
  selfSize: number;
  children: HeapNode[];
}

export interface Alloc {
  requests: number;
  /** Bytes allocated in the window, by layer: of the top frame, and on behalf of. */
  top: Map<Layer, number>;
  behalf: Map<Layer, number>;
  byFunction: Map<string, number>;
}

const NODE_LAYER = LAYERS[0];
const OTHER = LAYERS[LAYERS.length - 1];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A `.heapprofile`'s bytes by layer and by function. */
export function attribute(head: HeapNode, requests: number): Alloc {
  const nodes: ProfileNode[] = [];
  const parent = new Map<number, number>();
  const all: HeapNode[] = [];
  const walk = (n: HeapNode) => {
    all.push(n);
    nodes.push({ id: n.id, callFrame: n.callFrame, children: n.children.map((c) => c.id) });
    for (const c of n.children) {
      parent.set(c.id, n.id);
      walk(c);
    }
  };
  walk(head);
  const profile: Profile = { nodes, startTime: 0, endTime: 0, samples: [], timeDeltas: [] };
  const layers = classify(profile);
  const layerOf = (id: number) => layers.get(id)?.layer ?? OTHER;
  const out: Alloc = { requests, top: new Map(), behalf: new Map(), byFunction: new Map() };
  for (const n of all) {
    if (n.selfSize === 0) continue;
    const top = layerOf(n.id);
    let behalf = top;
    for (let p = parent.get(n.id); behalf === NODE_LAYER && p !== undefined; p = parent.get(p)) {
      if (layers.get(p)) behalf = layerOf(p);
    }
    add(out.top, top, n.selfSize);
    add(out.behalf, behalf, n.selfSize);
    add(out.byFunction, functionKey(n.callFrame), n.selfSize);
  }
  return out;
}

async function waitFor(file: string, server: Server) {
  for (let i = 0; i < 3000; i++) {
    if (existsSync(file)) return;
    if (server.child.exitCode !== null) throw new Error(`${server.name} exited`);
    await sleep(10);
  }
  throw new Error(`${server.name}: no ${file}`);
}

export interface AllocPass {
  start(name: Name, heapDir: string): Promise<Server>;
  /** Load `endpoint` on `server` for `seconds`. */
  load(server: Server, endpoint: Endpoint, seconds: number): Promise<LoadOutput>;
  names: readonly Name[];
  warmupSeconds: number;
  seconds: number;
}

/** Per `${name} ${endpoint}`, the bytes allocated in one sampled window of that route. */
export async function allocated(endpoints: Endpoint[], dir: string, pass: AllocPass) {
  const result = new Map<string, Alloc>();
  for (const name of pass.names) {
    const heapDir = join(dir, `${name}-heap`);
    mkdirSync(heapDir, { recursive: true });
    const server = await pass.start(name, heapDir);
    try {
      for (const [i, endpoint] of endpoints.entries()) {
        await pass.load(server, endpoint, pass.warmupSeconds);
        server.child.kill('SIGWINCH');
        await waitFor(join(heapDir, `${i + 1}.started`), server);
        const out = await pass.load(server, endpoint, pass.seconds);
        server.child.kill('SIGWINCH');
        const file = join(heapDir, `${i + 1}.heapprofile`);
        await waitFor(file, server);
        const failed = out.non2xx + out.errors;
        if (out.requests === 0 || failed > out.requests / 100) {
          throw new Error(`${endpoint} on ${name}: ${failed} of ${out.requests} requests failed`);
        }
        const { head } = JSON.parse(readFileSync(file, 'utf8')) as { head: HeapNode };
        result.set(`${name} ${endpoint}`, attribute(head, out.requests));
        const kb = [...result.get(`${name} ${endpoint}`)!.top.values()].reduce((a, b) => a + b, 0);
        console.log(
          `  allocated ${endpoint} on ${name}: ${(kb / 1024 / out.requests).toFixed(1)} KB/req`,
        );
      }
    } finally {
      await stopServer(server);
    }
  }
  return result;
}
