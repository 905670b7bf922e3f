import type { KeyObject } from 'node:crypto';
import { sign, type Jwt, type SignOptions } from 'jsonwebtoken';

/**
 * The device bearer token's format (docs/devices.md): HS256 under DEVICE_TOKEN_SECRET,
 * `typ: device+jwt`, `aud: device`. Signed here with jsonwebtoken; verified by the `device-jwt`
 * Passport strategy (passport-jwt, which calls jsonwebtoken), which reads the claims with
 * `deviceClaimsOf`.
 */
export const DEVICE_TOKEN_AUDIENCE = 'device';
const DEVICE_TOKEN_TYPE = 'device+jwt';
export const DEVICE_TOKEN_ALGORITHM = 'HS256';

/** What a verified device bearer token says. */
interface DeviceTokenClaims {
  deviceId: string;
  orgId: string;
  /** The thumbprint of the key the device proved it held when it got the token (`cnf.jkt`). */
  jkt?: string;
}

interface DeviceTokenContent {
  deviceId: string;
  orgId: string;
  jkt: string | null;
  jti: string;
  /** Seconds since the epoch, from the Clock. */
  issuedAt: number;
  expiresAt: number;
}

/**
 * The same options for every token, made once (jsonwebtoken only reads them). `mutatePayload`:
 * the payload is ours and made for this one call, so jsonwebtoken need not copy it first; it sets
 * `iat` to the value already there.
 */
const SIGN_OPTIONS: SignOptions = Object.freeze({
  algorithm: DEVICE_TOKEN_ALGORITHM,
  header: Object.freeze({ alg: DEVICE_TOKEN_ALGORITHM, typ: DEVICE_TOKEN_TYPE }),
  mutatePayload: true,
});

/**
 * The signed token. Claims in this order, header `{"alg":"HS256","typ":"device+jwt"}`: the same
 * bytes jose's SignJWT made before (device-token.jwt.spec.ts compares them). `iat` and `exp` are
 * given, so jsonwebtoken never reads its own clock.
 */
export function signDeviceToken(content: DeviceTokenContent, key: KeyObject): string {
  const payload = {
    org_id: content.orgId,
    ...(content.jkt ? { cnf: { jkt: content.jkt } } : {}),
    sub: content.deviceId,
    aud: DEVICE_TOKEN_AUDIENCE,
    jti: content.jti,
    iat: content.issuedAt,
    exp: content.expiresAt,
  };
  return sign(payload, key, SIGN_OPTIONS);
}

/** jose's reading of `typ`: case-insensitive, `application/` optional (RFC 7515 4.1.9). */
const normalizedType = (typ: unknown) =>
  typeof typ === 'string' ? typ.toLowerCase().replace(/^application\//, '') : undefined;

/**
 * The claims of a token jsonwebtoken verified, or null unless it is a device bearer token current
 * at `now` (seconds since the epoch, from the Clock): the right `typ`, a JSON object with `sub`,
 * `org_id`, `jti` and `exp` (jose required those too), a numeric `iat` when there is one, and the
 * time window checked here, not by jsonwebtoken, because only we hold the Clock.
 */
export function deviceClaimsOf(decoded: Jwt, now: number): DeviceTokenClaims | null {
  const { header, payload } = decoded;
  if (normalizedType(header.typ) !== DEVICE_TOKEN_TYPE) return null;
  if (typeof payload !== 'object' || payload === null) return null;
  const { sub, org_id: orgId, jti, exp, nbf, iat, cnf } = payload as Record<string, unknown>;
  if (typeof sub !== 'string' || typeof orgId !== 'string' || typeof jti !== 'string') return null;
  if (typeof exp !== 'number' || (iat !== undefined && typeof iat !== 'number')) return null;
  if (!isCurrent(exp, nbf, now)) return null;
  const jkt = (cnf as { jkt?: unknown } | undefined)?.jkt;
  return { deviceId: sub, orgId, ...(typeof jkt === 'string' ? { jkt } : {}) };
}

/**
 * jsonwebtoken's own rule with no clock tolerance: expired from the second `exp` names, not
 * valid before `nbf`, and a `nbf` that is not a number refused.
 */
function isCurrent(exp: number, nbf: unknown, now: number): boolean {
  if (nbf !== undefined && (typeof nbf !== 'number' || nbf > now)) return false;
  return now < exp;
}
