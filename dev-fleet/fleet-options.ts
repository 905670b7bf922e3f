/** dev:fleet's command line, read into plain options (no I/O: the unit spec reads it too). */
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import type { KeyKind } from './fleet-keys';

export const USAGE = `Usage:
  npm run dev:fleet -- --devices N [options]
      registers N devices with keys (1 000 per POST /api/v1/devices/batch) as an admin, then runs
      each as firmware would: a signed assertion for a token, renewed before it expires, a heartbeat
      (battery_pct, firmware_version) every few minutes; a share goes quiet for a while and comes
      back. Prints a summary line per interval and each event of a few watched devices.
  --base-url URL        where the service answers (default http://127.0.0.1:3000)
  --audience URL        the service's BASE_URL, the assertions' audience base (default BASE_URL
                        from the environment or .env, else http://localhost:3000)
  --cookie NAME=VALUE   an admin's session cookie; or
  --email EMAIL         sign in as this admin through the running dev:idp (OIDC_ISSUER, OIDC_AUDIENCE)
  --prefix P            device ids P000000… (default fleet-<random>-: new devices every run)
  --model M --provider P   (default hub-2, acme)   --key ec|ed25519 (default ec)
  --heartbeat-minutes M (default 5, or a third of --offline-after if less)
  --quiet-share F (default 0.05)   --quiet-minutes M (default 20)
  --time-scale S        divides the heartbeat and quiet times (e.g. 10: a heartbeat every 30 s);
                        tokens still live as long as the service says
  --offline-after SEC   first sets the organization's device_offline_after_seconds (PATCH /api/v1/org);
                        a heartbeat not under it is refused, one over a third of it warned about
  --ship SUBSCRIPTION   ships that paid subscription to the first device, which is watched and
                        goes quiet after --quiet-after-minutes (default 3, scaled)
  --watch K             devices printed event by event (default 3: the first, and quiet ones)
  --interval SEC        seconds between summary lines (default 10)
  --concurrency C       requests in flight at most (default 64)
  --duration SEC        stop after this long (default: until Ctrl-C)
  --register-only       register, print the ids, and stop`;

export interface FleetOptions {
  devices: number;
  baseUrl: string;
  audience: string;
  cookie?: string;
  email?: string;
  prefix: string;
  model: string;
  provider: string;
  keyKind: KeyKind;
  heartbeatMs: number;
  quietShare: number;
  quietMs: number;
  quietAfterMs: number;
  offlineAfter?: number;
  ship?: string;
  watch: number;
  intervalMs: number;
  concurrency: number;
  durationMs?: number;
  registerOnly: boolean;
  help: boolean;
  /** Said before the run: a flag combination that works but will not show what it should. */
  warnings: string[];
}

const MINUTE = 60_000;
/**
 * A heartbeat at most a third of the threshold: one lost heartbeat and a late one (a retry, a
 * slow network) still land before the deadline. At half, a single late one flips the device.
 */
const HEARTBEATS_PER_THRESHOLD = 3;
const DEFAULT_HEARTBEAT_MINUTES = 5;

/**
 * The heartbeat in milliseconds and what to say about it: without `--heartbeat-minutes` the
 * default, shortened to a third of `--offline-after`; given, refused when not under the threshold
 * (every device would flap), a warning when over a third of it.
 */
function heartbeat(
  minutes: string | undefined,
  scale: number,
  offlineAfter: number | undefined,
): { heartbeatMs: number; warnings: string[] } {
  const thresholdMs = offlineAfter === undefined ? Infinity : offlineAfter * 1000;
  const inside = thresholdMs / HEARTBEATS_PER_THRESHOLD;
  if (minutes === undefined) {
    return {
      heartbeatMs: Math.min((DEFAULT_HEARTBEAT_MINUTES * MINUTE) / scale, inside),
      warnings: [],
    };
  }
  const heartbeatMs = (num('heartbeat-minutes', minutes, 0, 0.01) * MINUTE) / scale;
  const secs = (ms: number) => `${+(ms / 1000).toFixed(1)} s`;
  if (heartbeatMs >= thresholdMs) {
    throw new Error(
      `--heartbeat-minutes: a heartbeat every ${secs(heartbeatMs)} is not under --offline-after ${offlineAfter}: ` +
        `every device would go offline between two heartbeats; keep it to at most ${secs(inside)}`,
    );
  }
  const warnings =
    heartbeatMs > inside
      ? [
          `a heartbeat every ${secs(heartbeatMs)} against a threshold of ${secs(thresholdMs)}: one late ` +
            `heartbeat reports a device offline; at most ${secs(inside)} (a third) keeps it well inside`,
        ]
      : [];
  return { heartbeatMs, warnings };
}

function num(name: string, value: string | undefined, fallback: number, min = 0): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < min) throw new Error(`--${name}: ${value}`);
  return n;
}

export function readOptions(argv: string[], env: Record<string, string | undefined>): FleetOptions {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      devices: { type: 'string' },
      'base-url': { type: 'string' },
      audience: { type: 'string' },
      cookie: { type: 'string' },
      email: { type: 'string' },
      prefix: { type: 'string' },
      model: { type: 'string' },
      provider: { type: 'string' },
      key: { type: 'string' },
      'heartbeat-minutes': { type: 'string' },
      'quiet-share': { type: 'string' },
      'quiet-minutes': { type: 'string' },
      'quiet-after-minutes': { type: 'string' },
      'time-scale': { type: 'string' },
      'offline-after': { type: 'string' },
      ship: { type: 'string' },
      watch: { type: 'string' },
      interval: { type: 'string' },
      concurrency: { type: 'string' },
      duration: { type: 'string' },
      'register-only': { type: 'boolean' },
      help: { type: 'boolean' },
    },
  });
  const scale = num('time-scale', v['time-scale'], 1, 0.001);
  const keyKind = v.key ?? 'ec';
  if (keyKind !== 'ec' && keyKind !== 'ed25519') throw new Error(`--key: ${keyKind}`);
  const quietShare = num('quiet-share', v['quiet-share'], 0.05);
  if (quietShare > 1) throw new Error(`--quiet-share: ${quietShare}`);
  const devices = v.help ? 0 : num('devices', v.devices, NaN, 1);
  if (!v.help && !Number.isInteger(devices)) throw new Error('--devices N is required');
  const offlineAfter =
    v['offline-after'] === undefined ? undefined : num('offline-after', v['offline-after'], 0, 2);
  const beat = heartbeat(v['heartbeat-minutes'], scale, offlineAfter);
  return {
    devices,
    baseUrl: v['base-url'] ?? 'http://127.0.0.1:3000',
    audience: (v.audience ?? env.BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, ''),
    cookie: v.cookie,
    email: v.email,
    prefix: v.prefix ?? `fleet-${randomBytes(2).toString('hex')}-`,
    model: v.model ?? 'hub-2',
    provider: v.provider ?? 'acme',
    keyKind,
    heartbeatMs: beat.heartbeatMs,
    quietShare,
    quietMs: (num('quiet-minutes', v['quiet-minutes'], 20, 0.01) * MINUTE) / scale,
    quietAfterMs: (num('quiet-after-minutes', v['quiet-after-minutes'], 3) * MINUTE) / scale,
    offlineAfter,
    ship: v.ship,
    watch: num('watch', v.watch, 3),
    intervalMs: num('interval', v.interval, 10, 1) * 1000,
    concurrency: num('concurrency', v.concurrency, 64, 1),
    durationMs: v.duration === undefined ? undefined : num('duration', v.duration, 0) * 1000,
    registerOnly: v['register-only'] ?? false,
    help: v.help ?? false,
    warnings: beat.warnings,
  };
}

/** The n-th device's id: the prefix and six digits, in device_id order. */
export const fleetDeviceId = (prefix: string, n: number) =>
  `${prefix}${String(n).padStart(6, '0')}`;
