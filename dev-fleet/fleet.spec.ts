import type { AppConfig } from '../src/config/app-config';
import { DeviceAssertionVerifier } from '../src/device/tokens/device-assertion.verifier';
import { deviceKeyFrom } from '../src/device/registry/device-key';
import { afterAction, DeviceState, newDevice, nextAction, Schedule } from './fleet-device';
import { exportFleetKey, importFleetKey, newFleetKey, signAssertion } from './fleet-keys';
import { readOptions } from './fleet-options';
import { planFleet } from './fleet-plan';
import { DueQueue } from './fleet-queue';
import { newStats, percentile, record, summaryLine } from './fleet-report';

const BASE = 'http://localhost:3000';
const verifier = (now: Date) =>
  new DeviceAssertionVerifier({ baseUrl: BASE } as AppConfig, { now: () => now });

describe('dev:fleet assertions', () => {
  it.each(['ec', 'ed25519'] as const)(
    '%s: the service verifies what a simulated device signs',
    async (kind) => {
      const key = newFleetKey(kind);
      const stored = await deviceKeyFrom(key.jwk);
      const now = new Date();
      const assertion = signAssertion(
        'fleet-000001',
        key,
        `${BASE}/auth/device`,
        Math.floor(now.getTime() / 1000),
        'j1',
      );
      await expect(
        verifier(now).verify(assertion, 'fleet-000001', stored.jwk),
      ).resolves.toMatchObject({ jti: 'j1' });
      // The key survives the trip to another process (the bench's load core).
      const again = importFleetKey(
        JSON.parse(JSON.stringify(exportFleetKey(key))) as ReturnType<typeof exportFleetKey>,
      );
      const second = signAssertion(
        'fleet-000001',
        again,
        `${BASE}/auth/device`,
        Math.floor(now.getTime() / 1000),
      );
      await expect(verifier(now).verify(second, 'fleet-000001', stored.jwk)).resolves.toBeDefined();
      await expect(verifier(now).verify(second, 'fleet-000002', stored.jwk)).rejects.toThrow(
        'wrong_issuer',
      );
    },
  );
});

describe('dev:fleet device schedule', () => {
  const s: Schedule = {
    heartbeatMs: 300_000,
    refreshMarginMs: 60_000,
    quietMs: 1_200_000,
    retryMs: 30_000,
  };

  it('token first, a heartbeat at once, then every 5 minutes, renewed a minute before expiry', () => {
    let d: DeviceState = newDevice(0, 'd0', 1_000);
    expect(nextAction(d, s)).toEqual({ kind: 'token', at: 1_000 });
    d = afterAction(
      d,
      { kind: 'token', ok: true, token: 't1', expiresAt: 1_000 + 900_000 },
      1_000,
      s,
    );
    expect(nextAction(d, s)).toEqual({ kind: 'heartbeat', at: 1_000 });
    const kinds: string[] = [];
    for (let i = 0; i < 4; i++) {
      const a = nextAction(d, s);
      kinds.push(`${a.kind}@${a.at}`);
      d =
        a.kind === 'heartbeat'
          ? afterAction(d, { kind: 'heartbeat', status: 204 }, a.at, s)
          : afterAction(
              d,
              { kind: 'token', ok: true, token: 't2', expiresAt: a.at + 900_000 },
              a.at,
              s,
            );
    }
    expect(kinds).toEqual([
      'heartbeat@1000',
      'heartbeat@301000',
      'heartbeat@601000',
      'token@841000',
    ]);
    // The renewal keeps the heartbeat's rhythm.
    expect(nextAction(d, s)).toEqual({ kind: 'heartbeat', at: 901_000 });
  });

  it('goes quiet (drops its token), comes back after quietMs with a new token; a 401 asks again', () => {
    let d = newDevice(1, 'd1', 0, { quietAt: 500_000 });
    d = afterAction(d, { kind: 'token', ok: true, token: 't', expiresAt: 900_000 }, 0, s);
    d = afterAction(d, { kind: 'heartbeat', status: 204 }, 0, s);
    d = afterAction(d, { kind: 'heartbeat', status: 204 }, 300_000, s);
    expect(nextAction(d, s)).toEqual({ kind: 'quiet', at: 500_000 });
    d = afterAction(d, { kind: 'quiet' }, 500_000, s);
    expect(d.token).toBeNull();
    expect(nextAction(d, s)).toEqual({ kind: 'wake', at: 1_700_000 });
    d = afterAction(d, { kind: 'wake' }, 1_700_000, s);
    expect(nextAction(d, s)).toEqual({ kind: 'token', at: 1_700_000 });
    d = afterAction(d, { kind: 'token', ok: false }, 1_700_000, s);
    expect(nextAction(d, s)).toEqual({ kind: 'token', at: 1_730_000 });
    d = afterAction(d, { kind: 'token', ok: true, token: 'u', expiresAt: 2_630_000 }, 1_730_000, s);
    d = afterAction(d, { kind: 'heartbeat', status: 401 }, 1_730_000, s);
    expect(nextAction(d, s)).toEqual({ kind: 'token', at: 1_730_000 });
  });

  it('plans a share of quiet devices, spread out, and watches the first and some quiet ones', () => {
    const o = {
      devices: 100,
      prefix: 'p-',
      heartbeatMs: 300_000,
      quietShare: 0.05,
      quietAfterMs: 0,
      watch: 3,
    };
    const states = planFleet(o, 0, () => 0.5);
    const quiet = states.filter((d) => d.quietAt !== null).map((d) => d.index);
    expect(quiet).toEqual([10, 30, 50, 70, 90]);
    expect(states.filter((d) => d.watched).map((d) => d.deviceId)).toEqual([
      'p-000000',
      'p-000010',
      'p-000030',
    ]);
    const shipped = planFleet({ ...o, ship: 'sub', quietAfterMs: 180_000 }, 0, () => 0.5)[0];
    expect(shipped).toMatchObject({ watched: true, tokenWantedAt: 0, quietAt: 180_000 });
  });
});

describe('dev:fleet plumbing', () => {
  it('the queue gives devices in time order', () => {
    const q = new DueQueue();
    [5, 1, 4, 2, 3].forEach((at, id) => q.push(at, id));
    expect([q.pop(), q.pop(), q.pop(), q.pop(), q.pop(), q.pop()]).toEqual([
      1,
      3,
      4,
      2,
      0,
      undefined,
    ]);
  });

  it('scales the schedule and refuses bad options', () => {
    const o = readOptions(['--devices', '10', '--time-scale', '10', '--prefix', 'x-'], {
      BASE_URL: 'http://h:1/',
    });
    expect(o).toMatchObject({
      devices: 10,
      heartbeatMs: 30_000,
      quietMs: 120_000,
      audience: 'http://h:1',
      prefix: 'x-',
    });
    expect(() => readOptions([], {})).toThrow('--devices');
    expect(() => readOptions(['--devices', '1', '--key', 'rsa'], {})).toThrow('--key');
  });

  it('keeps the heartbeat within a third of --offline-after: by default, else a warning or a refusal', () => {
    const run = (...flags: string[]) => readOptions(['--devices', '1', ...flags], {});
    // The README's run: 5 minutes / 10 would be 30 s, the threshold itself.
    expect(run('--offline-after', '30', '--time-scale', '10')).toMatchObject({
      heartbeatMs: 10_000,
      warnings: [],
    });
    expect(run('--offline-after', '3600')).toMatchObject({ heartbeatMs: 300_000, warnings: [] });
    expect(run('--offline-after', '30', '--heartbeat-minutes', '0.25')).toMatchObject({
      heartbeatMs: 15_000,
      warnings: [expect.stringMatching(/heartbeat every 15 s.*threshold of 30 s.*at most 10 s/)],
    });
    expect(() => run('--offline-after', '30', '--heartbeat-minutes', '0.5')).toThrow(
      /--heartbeat-minutes.*30 s.*not under.*--offline-after 30/,
    );
    expect(run('--time-scale', '10')).toMatchObject({ heartbeatMs: 30_000, warnings: [] });
  });

  it('summarises an interval', () => {
    const st = newStats();
    for (let i = 1; i <= 100; i++) record(st.heartbeat, true, 204, i);
    record(st.token, false, 401, 3);
    expect(percentile(st.heartbeat.ms, 99)).toBe(99);
    expect(summaryLine(65_000, st, { quiet: 2, online: 90, total: 100 })).toBe(
      '+01:05  tokens 0 ok, failed 1×401 (p50 3 ms, p99 3 ms)  heartbeats 100 ok (p50 50 ms, p99 99 ms)  | 90/100 reporting, 2 quiet',
    );
  });
});
