/**
 * The fleet's request mix at a fixed rate, from the load core (bench/fleet.ts starts it): per
 * device one token every 15 minutes and a heartbeat every 5, so three heartbeats to a token, sent
 * as dev:fleet's devices send them (dev-fleet/fleet-requests.ts: a signed assertion of the
 * device's registered key, then heartbeats under the token it got), spread over the service
 * instances as a load balancer would. Open loop: request k leaves at start + k / rate, whatever
 * the answers before it, so a slow service shows in the latencies and not in a lower rate.
 * Prints `{"phase":"measure"}` when the measured window starts and the result as a JSON line.
 */
import { readFileSync } from 'node:fs';
import { FleetClient } from '../dev-fleet/fleet-client';
import { ExportedKey, FleetKey, importFleetKey } from '../dev-fleet/fleet-keys';
import { requestToken, sendHeartbeat } from '../dev-fleet/fleet-requests';
import { percentile } from '../dev-fleet/fleet-report';

export interface FleetLoadInput {
  urls: string[];
  /** `{BASE_URL}/auth/device`: the assertions' audience. */
  audience: string;
  devices: { deviceId: string; model: string; provider: string; key: ExportedKey }[];
  rps: number;
  warmupSeconds: number;
  seconds: number;
}

export interface KindResult {
  requests: number;
  p50: number;
  p99: number;
  /** Answers other than 200 (token) or 204 (heartbeat), and no answer at all. */
  failed: number;
  /** The failures by status (0: no answer within the client's 10 s). */
  failedBy: Record<string, number>;
}

export interface FleetLoadOutput {
  seconds: number;
  /** Requests sent per second in the measured window (the rate asked for, if the core kept up). */
  rps: number;
  token: KindResult;
  heartbeat: KindResult;
  /** Answers of the window's requests that came back after it ended (in the tail second). */
  late: number;
  /**
   * Successful answers that arrived from the window's start to the tail's end, whenever their
   * request left (a backlog from the warm-up counts): the work the CPU readings paid for.
   */
  served: number;
  /** The window and its tail, seconds: what `served` and the CPU readings span. */
  servedSeconds: number;
}

const TICK_MS = 2;

async function run(input: FleetLoadInput): Promise<FleetLoadOutput> {
  const clients = input.urls.map((u) => new FleetClient(u, { sockets: 256 }));
  const keys: FleetKey[] = input.devices.map((d) => importFleetKey(d.key));
  const tokens: (string | null)[] = input.devices.map(() => null);
  const holders: number[] = [];
  let nextDevice = 0;
  let nextHolder = 0;
  let measuring = false;
  const lat = { token: [] as number[], heartbeat: [] as number[] };
  const failed = { token: 0, heartbeat: 0 };
  const failedBy = { token: {} as Record<string, number>, heartbeat: {} as Record<string, number> };
  const fail = (k: 'token' | 'heartbeat', status: number) => {
    failed[k]++;
    failedBy[k][status] = (failedBy[k][status] ?? 0) + 1;
  };
  let late = 0;
  let sent = 0;
  let counting = false;
  let served = 0;

  const send = (k: number) => {
    const client = clients[k % clients.length];
    const counted = measuring;
    if (counted) sent++;
    // Every fourth request a token, the next device's in turn; the rest heartbeats of devices that
    // hold one (a token until the first few have come back).
    if (k % 4 === 0 || holders.length === 0) {
      const i = nextDevice++ % input.devices.length;
      void requestToken(client, input.devices[i], keys[i], input.audience).then((res) => {
        if (counting && res.status === 200) served++;
        if (res.status === 200 && res.body) {
          if (tokens[i] === null) holders.push(i);
          tokens[i] = res.body.access_token;
        }
        if (!counted) return;
        if (!measuring) late++;
        lat.token.push(res.ms);
        if (res.status !== 200) fail('token', res.status);
      });
      return;
    }
    const i = holders[nextHolder++ % holders.length];
    const report = { battery_pct: 87, firmware_version: '2.4.1' };
    void sendHeartbeat(client, tokens[i]!, report).then((res) => {
      if (counting && res.status === 204) served++;
      if (!counted) return;
      if (!measuring) late++;
      lat.heartbeat.push(res.ms);
      if (res.status !== 204) fail('heartbeat', res.status);
    });
  };

  const window = (seconds: number) =>
    new Promise<void>((resolve) => {
      const start = performance.now();
      const total = Math.round(seconds * input.rps);
      let k = 0;
      const tick = () => {
        const due = Math.min(total, Math.floor(((performance.now() - start) / 1000) * input.rps));
        for (; k < due; k++) send(k);
        if (k >= total) resolve();
        else setTimeout(tick, TICK_MS);
      };
      tick();
    });

  await window(input.warmupSeconds);
  process.stdout.write(`${JSON.stringify({ phase: 'measure' })}\n`);
  measuring = true;
  counting = true;
  const t0 = performance.now();
  await window(input.seconds);
  const seconds = (performance.now() - t0) / 1000;
  measuring = false;
  // The answers still on their way belong to the window: wait for them (a second at most).
  await new Promise((r) => setTimeout(r, 1000));
  counting = false;
  const servedSeconds = (performance.now() - t0) / 1000;
  clients.forEach((c) => c.close());
  const kind = (k: 'token' | 'heartbeat'): KindResult => ({
    requests: lat[k].length,
    p50: percentile(lat[k], 50),
    p99: percentile(lat[k], 99),
    failed: failed[k],
    failedBy: failedBy[k],
  });
  return {
    seconds,
    rps: sent / seconds,
    token: kind('token'),
    heartbeat: kind('heartbeat'),
    late,
    served,
    servedSeconds,
  };
}

run(JSON.parse(readFileSync(process.argv[2], 'utf8')) as FleetLoadInput)
  .then((out) => process.stdout.write(`${JSON.stringify(out)}\n`))
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
