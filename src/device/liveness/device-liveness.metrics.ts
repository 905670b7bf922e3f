import { Counter } from 'prom-client';

/** Liveness events recorded (docs/devices.md, "Liveness"), counted after their commit. */
export const livenessEventsSent = new Counter({
  name: 'device_liveness_events_total',
  help: 'device.offline, device.online and device.battery_low events recorded, by type',
  labelNames: ['type'] as const,
});
