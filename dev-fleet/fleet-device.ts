/**
 * One simulated device's firmware loop, as plain state and two pure functions (no I/O, no clock):
 * `nextAction` says what the device does next and when, `afterAction` what it then knows. The
 * runner (fleet-run.ts) does the HTTP; the unit spec walks a device through its life.
 */

/** Real milliseconds (already divided by --time-scale where the option says so). */
export interface Schedule {
  /** Between two heartbeats (5 minutes at scale 1). */
  heartbeatMs: number;
  /** A token is renewed this long before its `expires_at` (real time: the service's clock). */
  refreshMarginMs: number;
  /** How long a device that goes quiet stays quiet. */
  quietMs: number;
  /** After a refused or failed token request, the next try. */
  retryMs: number;
}

export interface DeviceState {
  index: number;
  deviceId: string;
  /** Printed event by event (the few noteworthy devices); the rest only in the summaries. */
  watched: boolean;
  token: string | null;
  /** Epoch ms of the token's `expires_at`. */
  tokenExpiresAt: number | null;
  /** When the device asks for its (first, or next after a failure or a wake) token. */
  tokenWantedAt: number;
  nextHeartbeatAt: number;
  /** When it goes quiet (switched off, out of coverage), or null: it will not. */
  quietAt: number | null;
  /** While quiet: when it comes back. */
  quietUntil: number | null;
  batteryPct: number;
  firmwareVersion: string;
}

export type ActionKind = 'token' | 'heartbeat' | 'quiet' | 'wake';

export interface Action {
  kind: ActionKind;
  at: number;
}

/** The new device, starting at `startAt` (spread over one heartbeat so a fleet does not stampede). */
export function newDevice(
  index: number,
  deviceId: string,
  startAt: number,
  o: { watched?: boolean; quietAt?: number | null; batteryPct?: number } = {},
): DeviceState {
  return {
    index,
    deviceId,
    watched: o.watched ?? false,
    token: null,
    tokenExpiresAt: null,
    tokenWantedAt: startAt,
    nextHeartbeatAt: startAt,
    quietAt: o.quietAt ?? null,
    quietUntil: null,
    batteryPct: o.batteryPct ?? 100,
    firmwareVersion: '2.4.1',
  };
}

/** The earliest thing the device does next (ties: in the order quiet, token, heartbeat). */
export function nextAction(d: DeviceState, s: Schedule): Action {
  if (d.quietUntil !== null) return { kind: 'wake', at: d.quietUntil };
  const candidates: Action[] = [];
  if (d.quietAt !== null) candidates.push({ kind: 'quiet', at: d.quietAt });
  candidates.push({
    kind: 'token',
    at: d.tokenExpiresAt === null ? d.tokenWantedAt : d.tokenExpiresAt - s.refreshMarginMs,
  });
  // No heartbeat without a token: the first one follows the first token.
  if (d.token !== null) candidates.push({ kind: 'heartbeat', at: d.nextHeartbeatAt });
  return candidates.reduce((a, b) => (b.at < a.at ? b : a));
}

/** What the service answered: a token (with its expiry), a heartbeat's status, or nothing. */
export type Outcome =
  | { kind: 'token'; ok: true; token: string; expiresAt: number }
  | { kind: 'token'; ok: false }
  | { kind: 'heartbeat'; status: number }
  | { kind: 'quiet' }
  | { kind: 'wake' };

/** The battery a heartbeat reports: it drains a point every other report, and is charged at 8. */
export function drained(pct: number, index: number, beat: number): number {
  if (pct <= 8) return 100;
  return (index + beat) % 2 === 0 ? pct - 1 : pct;
}

/** The state after `outcome` happened at `now`. */
export function afterAction(
  d: DeviceState,
  outcome: Outcome,
  now: number,
  s: Schedule,
): DeviceState {
  switch (outcome.kind) {
    case 'quiet':
      // Switched off: a device that comes back starts over, with a new token.
      return {
        ...d,
        quietAt: null,
        quietUntil: now + s.quietMs,
        token: null,
        tokenExpiresAt: null,
      };
    case 'wake':
      return { ...d, quietUntil: null, tokenWantedAt: now, nextHeartbeatAt: now };
    case 'token':
      if (!outcome.ok) {
        return { ...d, token: null, tokenExpiresAt: null, tokenWantedAt: now + s.retryMs };
      }
      return {
        ...d,
        token: outcome.token,
        tokenExpiresAt: outcome.expiresAt,
        // A device that had no token reports in at once; a renewal keeps the rhythm.
        nextHeartbeatAt: d.token === null ? now : d.nextHeartbeatAt,
      };
    case 'heartbeat':
      if (outcome.status === 401) {
        return { ...d, token: null, tokenExpiresAt: null, tokenWantedAt: now };
      }
      return {
        ...d,
        nextHeartbeatAt: now + s.heartbeatMs,
        batteryPct: drained(d.batteryPct, d.index, Math.floor(now / s.heartbeatMs)),
      };
  }
}
