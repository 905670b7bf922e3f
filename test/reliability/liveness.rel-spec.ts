import { DataSource } from 'typeorm';
import { DeviceLiveness } from '../../src/device/liveness/device-liveness.service';
import { signIn } from '../support/auth';
import { eventually } from '../support/webhook-receiver';
import { createTestApp, TestApp } from '../support/test-app';
import { recordFigure } from './support/figures';

const DEVICES = 10_000;

/**
 * Contract section 10, "Liveness", scaled out: two instances on one database, each with its timer
 * (every second) and passes run by hand on both at once, while 10 000 devices go quiet together.
 * Each device's `device.offline` is stored exactly once (the advisory lock takes turns; SKIP
 * LOCKED and `offline_since` keep a device from being taken twice).
 */
describe('liveness: two instances, 10 000 devices going quiet at once', () => {
  let a: TestApp;
  let b: TestApp;
  beforeAll(async () => {
    const env = { DEVICE_LIVENESS_INTERVAL_SECONDS: '1' };
    [a, b] = await Promise.all([createTestApp({ env }), createTestApp({ env })]);
  });
  afterAll(async () => {
    await Promise.all([a.close(), b.close()]);
  });

  it('stores each device.offline exactly once', async () => {
    const { user } = await signIn(a, { role: 'admin' });
    const db = a.app.get(DataSource);
    // Seen a second ago with a deadline already passed: all due at the instances' next pass.
    const now = new Date();
    await db.query(
      `INSERT INTO devices (org_id, device_id, model, provider, status, created_at, updated_at,
          last_seen_at, offline_after)
        SELECT $1::uuid, 'quiet-' || substr(md5($1::text), 1, 8) || '-' || g, 'hub-2', 'acme', 'active',
          $2, $2, $2, $2::timestamptz - interval '1 second'
        FROM generate_series(1, $3::int) g`,
      [user.orgId, now, DEVICES],
    );
    const started = performance.now();
    const passes = await Promise.all([a, b, a, b].map((t) => t.app.get(DeviceLiveness).runOnce()));
    const offlineOf = async () => {
      const [row] = await db.query<{ marked: number; events: number; distinct: number }[]>(
        `SELECT (SELECT count(*)::int FROM devices WHERE org_id = $1 AND offline_since IS NOT NULL)
            AS marked,
          count(*)::int AS events, count(DISTINCT payload::jsonb -> 'data' ->> 'device_id')::int
            AS distinct
          FROM outgoing_events WHERE org_id = $1 AND type = 'device.offline'`,
        [user.orgId],
      );
      return row;
    };
    const done = await eventually('every device reported', async () => {
      const row = await offlineOf();
      return row.marked === DEVICES && row;
    });
    const ms = Math.round(performance.now() - started);
    // A pass more on each finds nothing left, and sends nothing.
    await Promise.all([a, b].map((t) => t.app.get(DeviceLiveness).runOnce()));
    const after = await offlineOf();
    recordFigure(
      'Scale-out',
      `liveness: ${DEVICES} devices quiet at once, 2 instances: device.offline stored / distinct devices`,
      `${after.events} / ${after.distinct}`,
      `${DEVICES} / ${DEVICES}`,
    );
    recordFigure(
      'Scale-out',
      'liveness: time until all were reported (4 concurrent passes and the timers)',
      `${ms} ms (by hand: ${passes.map((p) => p.offline).join(' + ')})`,
      'one pass, batches of 1 000',
    );
    expect(done.events).toBe(DEVICES);
    expect(after).toEqual({ marked: DEVICES, events: DEVICES, distinct: DEVICES });
  });
});
