/**
 * The fleet's request mix at a fixed rate, from the load core (a LoadWorker of bench/fleet.ts): per
 * device one token every 15 minutes and a heartbeat every 5, so three heartbeats to a token, sent
 * as dev:fleet's devices send them (dev-fleet/fleet-requests.ts: a signed assertion of the
 * device's registered key, then heartbeats under the token it got), spread over a side's
 * instances as a load balancer would. Open loop: request k leaves at start + k / rate, whatever
 * the answers before it, so a slow server shows in the latencies and not in a lower rate.
 * Started with the devices' file; each JSON line in is one window against one side's instances.
 */
import { readFileSync } from 'node:fs';
import { FleetClient } from '../dev-fleet/fleet-client';
import { ExportedKey, importFleetKey } from '../dev-fleet/fleet-keys';
import { requestToken, sendHeartbeat } from '../dev-fleet/fleet-requests';
import { percentile } from '../dev-fleet/fleet-report';
import { serveLines } from './procs';

export interface FleetDevices {
  /** `{BASE_URL}/auth/device`: the assertions' audience. */
  audience: string;
  devices: { deviceId: string; model: string; provider: string; key: ExportedKey }[];
}

export interface FleetWindow {
  urls: string[];
  rps: number;
  seconds: number;
}

export interface KindResult {
  requests: number;
  p50: number;
  p99: number;
  /** Answers other than 200 (token) or 204 (heartbeat), by status (0: no answer within 10 s). */
  failedBy: Record<string, number>;
}

export interface FleetWindowOutput {
  /** Requests sent per second (the rate asked for, if the load core kept up). */
  rps: number;
  token: KindResult;
  heartbeat: KindResult;
  /**
   * Successful answers from the window's start to its tail's end, whenever their request left (a
   * saturated side's backlog from before counts): the work the CPU readings paid for.
   */
  served: number;
  /** Successful answers per second within the window: below `rps`, the side was saturated. */
  answeredPerS: number;
}

const TICK_MS = 2;
/** The answers still on their way when the window ends belong to it: a second to come back. */
const TAIL_MS = 1000;

const { audience, devices } = JSON.parse(readFileSync(process.argv[2], 'utf8')) as FleetDevices;
const keys = devices.map((d) => importFleetKey(d.key));
const clients = new Map<string, FleetClient>();
/** Each side's tokens (its servers issued them), kept from one window to its next. */
const sides = new Map<string, { tokens: (string | null)[]; holders: number[] }>();
let nextDevice = 0;
/** Successful answers so far, of every window. */
let answeredOk = 0;

/** Request k sent at start + k / rate, whatever came back; answers how many were sent. */
async function openLoop(rps: number, seconds: number, send: (k: number) => void): Promise<number> {
  const t0 = performance.now();
  const total = Math.round(seconds * rps);
  await new Promise<void>((resolve) => {
    let k = 0;
    const tick = () => {
      const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rps));
      for (; k < due; k++) send(k);
      if (k >= total) resolve();
      else setTimeout(tick, TICK_MS);
    };
    tick();
  });
  return total;
}

async function run(w: FleetWindow): Promise<FleetWindowOutput> {
  const side = sides.get(w.urls.join()) ?? { tokens: devices.map(() => null), holders: [] };
  sides.set(w.urls.join(), side);
  const lat = { token: [] as number[], heartbeat: [] as number[] };
  const failedBy = { token: {} as Record<string, number>, heartbeat: {} as Record<string, number> };
  let counting = true;
  const answered = (k: 'token' | 'heartbeat', status: number, ms: number, ok: number) => {
    if (status === ok) answeredOk++;
    if (!counting) return;
    if (status !== ok) failedBy[k][status] = (failedBy[k][status] ?? 0) + 1;
    lat[k].push(ms);
  };
  let nextHolder = 0;
  const send = (k: number) => {
    const url = w.urls[k % w.urls.length];
    const client = clients.get(url) ?? new FleetClient(url, { sockets: 256 });
    clients.set(url, client);
    // Every fourth request a token, the next device's in turn; the rest heartbeats of devices that
    // hold one (a token until the first few have come back).
    if (k % 4 === 0 || side.holders.length === 0) {
      const i = nextDevice++ % devices.length;
      void requestToken(client, devices[i], keys[i], audience).then((res) => {
        answered('token', res.status, res.ms, 200);
        if (res.status !== 200 || !res.body) return;
        if (side.tokens[i] === null) side.holders.push(i);
        side.tokens[i] = res.body.access_token;
      });
      return;
    }
    const i = side.holders[nextHolder++ % side.holders.length];
    const report = { battery_pct: 87, firmware_version: '2.4.1' };
    void sendHeartbeat(client, side.tokens[i]!, report).then((res) =>
      answered('heartbeat', res.status, res.ms, 204),
    );
  };
  const [t0, ok0] = [performance.now(), answeredOk];
  const total = await openLoop(w.rps, w.seconds, send);
  const seconds = (performance.now() - t0) / 1000;
  const answeredPerS = (answeredOk - ok0) / seconds;
  await new Promise((r) => setTimeout(r, TAIL_MS));
  counting = false;
  const kind = (k: 'token' | 'heartbeat'): KindResult => ({
    requests: lat[k].length,
    p50: percentile(lat[k], 50),
    p99: percentile(lat[k], 99),
    failedBy: failedBy[k],
  });
  const [token, heartbeat] = [kind('token'), kind('heartbeat')];
  return { rps: total / seconds, token, heartbeat, served: answeredOk - ok0, answeredPerS };
}

serveLines(run);
