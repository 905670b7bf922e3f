/**
 * What a device sends, and how it reads the answers: the one definition dev:fleet and the bench's
 * fleet load (bench/fleet-load.ts) both use.
 */
import type { Answer, FleetClient } from './fleet-client';
import { FleetKey, signAssertion } from './fleet-keys';

export interface DeviceIdentity {
  deviceId: string;
  model: string;
  provider: string;
}

export interface IssuedToken {
  access_token: string;
  expires_in: number;
  expires_at: string;
}

/** The token endpoint's audience: the service's base URL as the service knows it (BASE_URL). */
export const tokenAudience = (serviceBaseUrl: string) =>
  `${serviceBaseUrl.replace(/\/+$/, '')}/auth/device`;

/** POST /auth/device with a fresh signed assertion. */
export function requestToken(
  client: FleetClient,
  device: DeviceIdentity,
  key: FleetKey,
  audience: string,
  nowMs: number = Date.now(),
): Promise<Answer<IssuedToken>> {
  return client.json<IssuedToken>('POST', '/auth/device', {
    device_id: device.deviceId,
    model: device.model,
    provider: device.provider,
    assertion: signAssertion(device.deviceId, key, audience, Math.floor(nowMs / 1000)),
  });
}

export interface HeartbeatReport {
  battery_pct?: number;
  firmware_version?: string;
}

/** POST /api/device/v1/heartbeat under the device's bearer token; 204 when recorded. */
export function sendHeartbeat(
  client: FleetClient,
  token: string,
  report: HeartbeatReport,
): Promise<Answer> {
  return client.json('POST', '/api/device/v1/heartbeat', report, {
    authorization: `Bearer ${token}`,
  });
}
