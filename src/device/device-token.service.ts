import { createHash, createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { HttpStatus, Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { AppException } from '../common/errors/app.exception';
import { ErrorCode } from '../common/errors/error-code.enum';
import { AppConfig } from '../config/app-config';
import { DeviceAuthDto, DeviceTokenDto } from './device-auth.dto';
import { Device } from './device.entity';
import { isCanonicalDeviceId } from './device.rules';

export const DEVICE_TOKEN_AUDIENCE = 'device';
export const DEVICE_TOKEN_TYPE = 'device+jwt';
export const DEVICE_TOKEN_ALGORITHM = 'HS256';

/** Claims of a device token besides the registered ones (sub, aud, jti, iat, exp). */
export interface DeviceTokenClaims {
  org_id: string;
}

/** The whole payload, in the order jsonwebtoken wrote it (its own claims, then aud, sub, jti). */
interface SignedClaims extends DeviceTokenClaims {
  iat: number;
  exp: number;
  aud: string;
  sub: string;
  jti: string;
}

/** Compared against when no device was found, so every refusal costs the same work. */
const NO_DEVICE = { model: '\u0000no-device', provider: '\u0000no-device', status: 'deactivated' };
/** Looked up instead of a non-canonical id: same query, can never match, never a driver error. */
const NEVER_REGISTERED = '#';

/** Only what the check and the token need, as a constant statement (nothing rebuilt per request). */
const CLAIM_SQL = `SELECT device_id AS "deviceId", org_id AS "orgId", model, provider, status
  FROM devices WHERE device_id = $1 LIMIT 1`;
type ClaimRow = Pick<Device, 'deviceId' | 'orgId' | 'model' | 'provider' | 'status'>;

const base64url = (value: object): string =>
  Buffer.from(JSON.stringify(value), 'utf8').toString('base64url');
/** The JOSE header is the same for every token, so its segment is encoded once. */
const HEADER_SEGMENT = base64url({ alg: DEVICE_TOKEN_ALGORITHM, typ: DEVICE_TOKEN_TYPE });

/** Exchanges a registered device's identity for a short-lived bearer token. */
@Injectable()
export class DeviceTokenService {
  constructor(
    @InjectRepository(Device) private readonly devices: Repository<Device>,
    private readonly config: AppConfig,
  ) {}

  async issue(claim: DeviceAuthDto): Promise<DeviceTokenDto> {
    const deviceId = isCanonicalDeviceId(claim.device_id) ? claim.device_id : NEVER_REGISTERED;
    const rows = await this.devices.query<ClaimRow[]>(CLAIM_SQL, [deviceId]);
    const device = rows[0] ?? null;
    if (!credentialsMatch(device, claim) || !device) {
      throw new AppException(
        ErrorCode.InvalidDevice,
        HttpStatus.UNAUTHORIZED,
        'The device is not registered, not active, or does not match its registration.',
      );
    }
    return this.sign(device);
  }

  /**
   * HS256 by hand with the configured key object: the same bytes jsonwebtoken's sign() wrote (claims
   * in its order, unpadded base64url), without its per-call option and key checks.
   */
  private sign(device: ClaimRow): DeviceTokenDto {
    const ttl = this.config.deviceToken.ttlSeconds;
    const now = Math.floor(Date.now() / 1000);
    const claims: SignedClaims = {
      org_id: device.orgId,
      iat: now,
      exp: now + ttl,
      aud: DEVICE_TOKEN_AUDIENCE,
      sub: device.deviceId,
      jti: randomUUID(),
    };
    const signed = `${HEADER_SEGMENT}.${base64url(claims)}`;
    const signature = createHmac('sha256', this.config.deviceToken.secret)
      .update(signed, 'utf8')
      .digest('base64url');
    return {
      access_token: `${signed}.${signature}`,
      token_type: 'Bearer',
      expires_in: ttl,
      expires_at: new Date(claims.exp * 1000).toISOString(),
    };
  }
}

/**
 * True only for a found, active device whose model and provider both match. Every check runs
 * whatever the outcome, in constant time, so the answer's timing does not say which field was wrong.
 */
export function credentialsMatch(
  device: Pick<Device, 'model' | 'provider' | 'status'> | null,
  claim: Pick<DeviceAuthDto, 'model' | 'provider'>,
): boolean {
  const stored = device ?? NO_DEVICE;
  const model = sameText(stored.model, claim.model);
  const provider = sameText(stored.provider, claim.provider);
  const active = sameText(stored.status, 'active');
  return [device !== null, model, provider, active].every(Boolean);
}

/** Equal-length digests, so timingSafeEqual compares without revealing lengths or prefixes. */
function sameText(a: string, b: string): boolean {
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(a), digest(b));
}
