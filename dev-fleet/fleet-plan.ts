import { DeviceState, newDevice } from './fleet-device';
import { FleetOptions, fleetDeviceId } from './fleet-options';

/**
 * Every device's starting state: starts spread over one heartbeat interval; a `quietShare` of
 * them go quiet some time in their first three heartbeat intervals (for `quietMs`, then back);
 * the first device and the first quiet ones are watched. With --ship the first device is the
 * shipped one: it starts at once and goes quiet after `quietAfterMs`.
 */
export function planFleet(
  o: Pick<
    FleetOptions,
    'devices' | 'prefix' | 'heartbeatMs' | 'quietShare' | 'quietAfterMs' | 'watch' | 'ship'
  >,
  now: number,
  random: () => number = Math.random,
): DeviceState[] {
  const quietCount = Math.round(o.devices * o.quietShare);
  // Quiet devices are spread over the fleet (every k-th), not the first ones.
  const every = quietCount > 0 ? o.devices / quietCount : Infinity;
  const quiet = new Set<number>();
  for (let q = 0; q < quietCount; q++)
    quiet.add(Math.min(o.devices - 1, Math.floor(q * every + every / 2)));
  let watched = 0;
  return Array.from({ length: o.devices }, (_, i) => {
    const id = fleetDeviceId(o.prefix, i);
    const battery = 30 + Math.floor(random() * 71);
    if (i === 0 && o.ship) {
      watched++;
      return newDevice(i, id, now, {
        watched: true,
        quietAt: now + o.quietAfterMs,
        batteryPct: battery,
      });
    }
    const start = now + Math.floor(random() * o.heartbeatMs);
    const quietAt = quiet.has(i)
      ? start + Math.floor((0.5 + random() * 2.5) * o.heartbeatMs)
      : null;
    const watch = watched < o.watch && (i === 0 || quietAt !== null);
    if (watch) watched++;
    return newDevice(i, id, start, { watched: watch, quietAt, batteryPct: battery });
  });
}
