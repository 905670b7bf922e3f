/**
 * The administrator's side of dev:fleet: a session (a cookie given, or a sign-in through the
 * running dev:idp as the README's walk does), the devices registered in bulk, and the optional
 * org threshold and shipment.
 */
import { signInWithCodeFlow } from '../dev-idp/code-flow';
import type { FleetClient } from './fleet-client';
import type { FleetKey } from './fleet-keys';
import type { DeviceIdentity } from './fleet-requests';

/** POST /api/v1/devices/batch takes at most this many (contract section 10). */
export const BATCH_MAX = 1_000;

export interface SignIn {
  /** `name=value` as given, or empty to sign in with `email`. */
  cookie?: string;
  email?: string;
  issuer: string;
  clientId: string;
}

/** The session cookie for the admin calls: the one given, or a fresh sign-in's. */
export async function adminCookie(client: FleetClient, s: SignIn): Promise<string> {
  if (s.cookie) return s.cookie;
  if (!s.email) throw new Error('give --cookie NAME=VALUE or --email (an admin, via dev:idp)');
  const idToken = await signInWithCodeFlow(
    { issuer: s.issuer, clientId: s.clientId, redirectUri: `${s.issuer}/callback` },
    s.email,
  );
  const res = await client.json('POST', '/api/auth/login', { id_token: idToken });
  const set = res.headers['set-cookie'];
  const first = (Array.isArray(set) ? set[0] : set)?.split(';')[0];
  if (res.status !== 200 || !first) {
    throw new Error(`sign-in as ${s.email}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return first;
}

export interface Registered {
  created: number;
  existing: number;
  errors: { index: number; code: string; message: string }[];
  /** The batch route was missing (an older service): registered one call each. */
  oneByOne: boolean;
}

export interface FleetMember extends DeviceIdentity {
  key: FleetKey;
}

/** The devices as `{"devices":[…]}` rows, with the public key each will sign with. */
export const batchRows = (devices: FleetMember[]) =>
  devices.map((d) => ({
    device_id: d.deviceId,
    model: d.model,
    provider: d.provider,
    public_key: d.key.jwk,
  }));

interface BatchAnswer {
  created: string[];
  existing: string[];
  errors: Registered['errors'];
}

/** Registers every device, a thousand per call; `progress` after each call. */
export async function registerAll(
  client: FleetClient,
  cookie: string,
  devices: FleetMember[],
  progress: (done: number) => void = () => undefined,
): Promise<Registered> {
  const total: Registered = { created: 0, existing: 0, errors: [], oneByOne: false };
  for (let at = 0; at < devices.length; at += BATCH_MAX) {
    const chunk = devices.slice(at, at + BATCH_MAX);
    const res = await client.json<BatchAnswer>(
      'POST',
      '/api/v1/devices/batch',
      { devices: batchRows(chunk) },
      { cookie },
    );
    if (res.status === 404 && at === 0) return registerOneByOne(client, cookie, devices, progress);
    if (res.status !== 200 || !res.body) {
      throw new Error(`devices/batch: ${res.status} ${JSON.stringify(res.body)}`);
    }
    total.created += res.body.created.length;
    total.existing += res.body.existing.length;
    total.errors.push(...res.body.errors.map((e) => ({ ...e, index: e.index + at })));
    progress(at + chunk.length);
  }
  return total;
}

async function registerOneByOne(
  client: FleetClient,
  cookie: string,
  devices: FleetMember[],
  progress: (done: number) => void,
): Promise<Registered> {
  const total: Registered = { created: 0, existing: 0, errors: [], oneByOne: true };
  for (const [index, row] of batchRows(devices).entries()) {
    const res = await client.json<{ code?: string; detail?: string }>(
      'POST',
      '/api/v1/devices',
      row,
      { cookie },
    );
    if (res.status === 201) total.created++;
    else
      total.errors.push({
        index,
        code: res.body?.code ?? String(res.status),
        message: res.body?.detail ?? '',
      });
    if ((index + 1) % BATCH_MAX === 0) progress(index + 1);
  }
  progress(devices.length);
  return total;
}

/** PATCH /api/v1/org: the organization's offline threshold, so a walk need not wait 15 minutes. */
export async function setOfflineAfter(client: FleetClient, cookie: string, seconds: number) {
  const res = await client.json(
    'PATCH',
    '/api/v1/org',
    { device_offline_after_seconds: seconds },
    { cookie },
  );
  if (res.status !== 200)
    throw new Error(`PATCH /api/v1/org: ${res.status} ${JSON.stringify(res.body)}`);
}

/** PUT /api/v1/subscriptions/{id}/device: the paid subscription shipped to this device. */
export async function ship(
  client: FleetClient,
  cookie: string,
  subscriptionId: string,
  deviceId: string,
) {
  const res = await client.json<{ status?: string }>(
    'PUT',
    `/api/v1/subscriptions/${encodeURIComponent(subscriptionId)}/device`,
    { device_id: deviceId, carrier: 'dev-fleet', tracking_number: `DF-${deviceId}` },
    { cookie },
  );
  if (res.status !== 200) {
    throw new Error(`shipping ${subscriptionId}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return res.body;
}
