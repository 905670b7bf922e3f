/**
 * The yardstick's device routes, the fleet's two requests: the token (its identity check, for a
 * device with a key the service's own assertion verifier and jti statement) and the heartbeat (the
 * bearer checked by one HMAC, the device read, the service's contact statement). The service's
 * claim, jti, contact and activation statements and its assertion verifier are imported, so both
 * sides do the same database and crypto work on the fleet's path; what is left out is the
 * framework around it. Two small parts are the twin's own: the credentials comparison (a
 * constant-time hash of the claimed identity, as the service's) and the device read (`SELECT *`,
 * where the service names its columns from TypeORM's metadata). The twin has only the contact's
 * fast path; the slow one (a crossing: back online, battery low) is the service's alone.
 */
import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Pool } from 'pg';
import { Clock } from '../src/common/clock/clock';
import { bearerToken } from '../src/common/http/bearer-token';
import { AppConfig } from '../src/config/app-config';
import { validateEnv } from '../src/config/env.validation';
import type { StoredDeviceKey } from '../src/device/device.entity';
import { CONTACT_FAST_SQL } from '../src/device/liveness/device-liveness.sql';
import { DeviceAssertionVerifier } from '../src/device/tokens/device-assertion.verifier';
import { CONSUME_JTI_SQL, DEVICE_CLAIM_SQL } from '../src/device/tokens/device-token.sql';
import { AWAITING_ACTIVATION_SQL } from '../src/subscription/shipping/subscription-device-holds';

type Result = Promise<[number, unknown]>;

interface ClaimRow {
  id: string;
  deviceId: string;
  orgId: string;
  model: string;
  provider: string;
  status: string;
  publicKey: StoredDeviceKey | null;
  publicKeyThumbprint: string | null;
}

/** The active device a bearer token names, as the service's strategy reads it. */
const ACTIVE_SQL = `SELECT * FROM devices WHERE device_id = $1 AND org_id = $2 AND status = 'active' LIMIT 1`;

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest();
const b64url = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** The token and heartbeat handlers on the yardstick's pool, under the service's own settings. */
export function fleetHandlers(pool: Pool) {
  const config = new AppConfig(validateEnv(process.env));
  const verifier = new DeviceAssertionVerifier(config, new Clock());
  const { secret, ttlSeconds } = config.deviceToken;
  const { offlineAfterSeconds, batteryLowPct } = config.deviceLiveness;
  const hmac = (text: string) => createHmac('sha256', secret).update(text).digest('base64url');

  /** What a contact writes: the service's statement, its parameters in its order. */
  const contact = (id: string, firmware: string | null, battery: number | null) =>
    pool.query(CONTACT_FAST_SQL, [
      id,
      new Date(),
      offlineAfterSeconds,
      firmware,
      battery,
      batteryLowPct,
    ]);

  /** A device with a key proves it: the service's verifier, then its jti used once. */
  async function proved(d: ClaimRow, assertion: string | undefined): Promise<boolean> {
    if (!d.publicKey) return assertion === undefined;
    if (assertion === undefined) return false;
    const { jti, acceptableUntil } = await verifier.verify(assertion, d.deviceId, d.publicKey);
    const used = await pool.query(CONSUME_JTI_SQL, [d.id, jti, acceptableUntil, new Date()]);
    return used.rows.length === 1;
  }

  async function deviceToken(_r: IncomingMessage, body: Buffer): Result {
    const claim = JSON.parse(body.toString('utf8')) as Record<string, string | undefined>;
    const { rows } = await pool.query<ClaimRow>(DEVICE_CLAIM_SQL, [claim.device_id]);
    const d = rows[0];
    const stored = d ?? { model: '\u0000', provider: '\u0000', status: 'deactivated' };
    const same = timingSafeEqual(
      sha256(JSON.stringify([stored.model, stored.provider, stored.status])),
      sha256(JSON.stringify([claim.model, claim.provider, 'active'])),
    );
    if (!d || !same || !(await proved(d, claim.assertion)))
      return [401, { code: 'invalid_device' }];
    await contact(d.id, null, null);
    await pool.query(AWAITING_ACTIVATION_SQL, [d.deviceId]);
    const now = Math.floor(Date.now() / 1000);
    const jkt = d.publicKeyThumbprint;
    const header = b64url({ alg: 'HS256', typ: 'device+jwt' });
    const payload = b64url({
      org_id: d.orgId,
      ...(jkt ? { cnf: { jkt } } : {}),
      sub: d.deviceId,
      aud: 'device',
      jti: randomUUID(),
      iat: now,
      exp: now + ttlSeconds,
    });
    const token = `${header}.${payload}.${hmac(`${header}.${payload}`)}`;
    const expiresAt = new Date((now + ttlSeconds) * 1000).toISOString();
    return [
      200,
      { access_token: token, token_type: 'Bearer', expires_in: ttlSeconds, expires_at: expiresAt },
    ];
  }

  /** The bearer's claims when its signature, audience and lifetime hold; else undefined. */
  function claimsOf(req: IncomingMessage): Record<string, unknown> | undefined {
    const [header, payload, sig] = (bearerToken(req.headers.authorization) ?? '').split('.');
    if (!sig || sig.length !== 43) return undefined;
    if (!timingSafeEqual(Buffer.from(hmac(`${header}.${payload}`)), Buffer.from(sig)))
      return undefined;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<
      string,
      unknown
    >;
    const current = typeof claims.exp === 'number' && claims.exp > Date.now() / 1000;
    return claims.aud === 'device' && current ? claims : undefined;
  }

  async function heartbeat(req: IncomingMessage, body: Buffer): Result {
    const claims = claimsOf(req);
    if (!claims) return [401, { code: 'unauthenticated' }];
    const { rows } = await pool.query<{ id: string; public_key_thumbprint: string | null }>(
      ACTIVE_SQL,
      [claims.sub, claims.org_id],
    );
    const jkt = (claims.cnf as { jkt?: string } | undefined)?.jkt ?? null;
    if (!rows[0] || jkt !== rows[0].public_key_thumbprint)
      return [401, { code: 'unauthenticated' }];
    const report = JSON.parse(body.toString('utf8')) as {
      battery_pct?: number;
      firmware_version?: string;
    };
    await contact(rows[0].id, report.firmware_version ?? null, report.battery_pct ?? null);
    return [204, undefined];
  }

  return { deviceToken, heartbeat };
}
