/**
 * Runs every simulated device on its own schedule (fleet-device.ts) against the service: a queue
 * of what is due next, at most `concurrency` requests in flight, a summary line per interval and
 * event lines for the watched devices.
 */
import type { FleetMember } from './fleet-admin';
import type { Answer, FleetClient } from './fleet-client';
import { afterAction, DeviceState, nextAction, Outcome, Schedule } from './fleet-device';
import { DueQueue } from './fleet-queue';
import { eventLine, newStats, record, summaryLine } from './fleet-report';
import { IssuedToken, requestToken, sendHeartbeat } from './fleet-requests';

export interface FleetRun {
  client: FleetClient;
  audience: string;
  members: FleetMember[];
  states: DeviceState[];
  schedule: Schedule;
  intervalMs: number;
  concurrency: number;
  /** Resolves when the fleet should stop (Ctrl-C, --duration). */
  until: Promise<void>;
  print: (line: string) => void;
}

/** A problem detail's code, or the status: what a failure line says. */
const why = (res: Answer) =>
  `${res.status || 'no answer'}${(res.body as { code?: string } | undefined)?.code ? ` ${(res.body as { code: string }).code}` : ''}`;

export async function runFleet(r: FleetRun): Promise<void> {
  const { schedule: s, states } = r;
  const t0 = Date.now();
  const queue = new DueQueue();
  for (const d of states) queue.push(nextAction(d, s).at, d.index);
  let stats = newStats();
  let failurePrinted = false;
  const elapsed = () => Date.now() - t0;
  const show = (d: DeviceState, text: string) => r.print(eventLine(elapsed(), d.deviceId, text));

  const summary = setInterval(() => {
    const quiet = states.filter((d) => d.quietUntil !== null).length;
    const online = states.filter((d) => d.token !== null).length;
    r.print(summaryLine(elapsed(), stats, { quiet, online, total: states.length }));
    stats = newStats();
    failurePrinted = false;
  }, r.intervalMs);

  const failed = (d: DeviceState, what: string, res: Answer) => {
    if (d.watched || failurePrinted) return;
    failurePrinted = true;
    show(
      d,
      `${what} ← ${why(res)} ${JSON.stringify(res.body ?? '')} (first failure this interval)`,
    );
  };

  async function act(d: DeviceState): Promise<DeviceState> {
    const action = nextAction(d, s);
    const member = r.members[d.index];
    let outcome: Outcome;
    if (action.kind === 'quiet') {
      stats.wentQuiet++;
      if (d.watched)
        show(d, `goes quiet for ${Math.round(s.quietMs / 1000)} s (no heartbeat, no token)`);
      outcome = { kind: 'quiet' };
    } else if (action.kind === 'wake') {
      stats.cameBack++;
      if (d.watched) show(d, 'comes back: a new token, then a heartbeat');
      outcome = { kind: 'wake' };
    } else if (action.kind === 'token') {
      const res = await requestToken(r.client, member, member.key, r.audience);
      const ok = res.status === 200 && res.body !== undefined;
      record(stats.token, ok, res.status, res.ms);
      const issued = res.body as IssuedToken;
      if (d.watched) {
        const got = ok ? `token until ${issued.expires_at}` : why(res);
        show(
          d,
          `→ POST /auth/device (${member.key.alg} assertion) ← ${got} (${res.ms.toFixed(0)} ms)`,
        );
      } else if (!ok) failed(d, 'POST /auth/device', res);
      outcome = ok
        ? {
            kind: 'token',
            ok,
            token: issued.access_token,
            expiresAt: Date.parse(issued.expires_at),
          }
        : { kind: 'token', ok };
    } else {
      const report = { battery_pct: d.batteryPct, firmware_version: d.firmwareVersion };
      const res = await sendHeartbeat(r.client, d.token!, report);
      record(stats.heartbeat, res.status === 204, res.status, res.ms);
      if (d.watched) {
        show(
          d,
          `→ heartbeat battery ${d.batteryPct}% fw ${d.firmwareVersion} ← ${why(res)} (${res.ms.toFixed(0)} ms)`,
        );
      } else if (res.status !== 204) failed(d, 'heartbeat', res);
      outcome = { kind: 'heartbeat', status: res.status };
    }
    return afterAction(d, outcome, Date.now(), s);
  }

  let stopped = false;
  let wake: () => void = () => undefined;
  void r.until.then(() => {
    stopped = true;
    wake();
  });
  let inFlight = 0;
  while (!stopped) {
    while (queue.peek() <= Date.now() && inFlight < r.concurrency) {
      const i = queue.pop()!;
      inFlight++;
      void act(states[i]).then((next) => {
        states[i] = next;
        queue.push(nextAction(next, s).at, i);
        inFlight--;
        wake();
      });
    }
    const wait = inFlight >= r.concurrency ? 1000 : Math.min(1000, queue.peek() - Date.now());
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, wait));
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }
  clearInterval(summary);
}
