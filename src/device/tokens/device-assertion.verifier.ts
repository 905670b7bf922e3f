import { Injectable } from '@nestjs/common';
import type { JWTPayload } from 'jose';
import { Clock } from '../../common/clock/clock';
import { unstorableReason } from '../../common/validation/storable-text';
import { AppConfig } from '../../config/app-config';
import { algorithmsFor, verifyingKey } from '../registry/device-key';
import { joseLib } from '../../common/jwt/jose';
import type { StoredDeviceKey } from '../device.entity';

/** An assertion is short-lived: its `exp` at most this far ahead (docs/devices.md). */
const ASSERTION_MAX_LIFETIME_SECONDS = 300;
/** Device clocks drift: `exp`, `nbf` and `iat` are judged with this much leeway. */
const ASSERTION_CLOCK_TOLERANCE_SECONDS = 30;
const JTI_MAX = 255;

/** Why an assertion was refused; goes to the audit line, never to the client. */
export class DeviceProofError extends Error {
  constructor(readonly reason: string) {
    super(`device assertion refused: ${reason}`);
  }
}

export interface VerifiedAssertion {
  jti: string;
  /** Until when the assertion could be accepted (exp plus the tolerance): keep its jti that long. */
  acceptableUntil: Date;
}

/**
 * Checks a device's signed assertion (RFC 7523 style): signed by its registered key with an
 * algorithm that key allows, `iss` = `sub` = device_id, `aud` = this service's token endpoint,
 * `exp` in the future but at most 5 minutes ahead, `iat` (when present) not in the future, a `jti`.
 * Whether the jti is new is the caller's (DeviceJtiStore's) question.
 */
@Injectable()
export class DeviceAssertionVerifier {
  private readonly audience: string;

  constructor(
    config: AppConfig,
    private readonly clock: Clock,
  ) {
    this.audience = `${config.baseUrl}/auth/device`;
  }

  async verify(
    assertion: string,
    deviceId: string,
    key: StoredDeviceKey,
  ): Promise<VerifiedAssertion> {
    const jose = joseLib();
    const now = this.clock.now();
    let payload: JWTPayload;
    try {
      const verified = await jose.jwtVerify(assertion, verifyingKey(key), {
        algorithms: algorithmsFor(key),
        audience: this.audience,
        issuer: deviceId,
        subject: deviceId,
        currentDate: now,
        clockTolerance: ASSERTION_CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['iss', 'sub', 'aud', 'exp', 'jti'],
      });
      if (verified.protectedHeader.kid !== undefined && verified.protectedHeader.kid !== key.kid) {
        throw new DeviceProofError('unknown_kid');
      }
      payload = verified.payload;
    } catch (err) {
      if (err instanceof DeviceProofError) throw err;
      if (err instanceof jose.errors.JOSEError) throw new DeviceProofError(reasonFor(err));
      throw err;
    }
    return checkTimesAndId(payload, Math.floor(now.getTime() / 1000));
  }
}

function checkTimesAndId(payload: JWTPayload, nowSeconds: number): VerifiedAssertion {
  // jose has checked that exp is a number in the future and that iat, when present, is a number.
  const exp = payload.exp as number;
  if (exp > nowSeconds + ASSERTION_MAX_LIFETIME_SECONDS) throw new DeviceProofError('exp_too_far');
  if (payload.iat !== undefined && payload.iat > nowSeconds + ASSERTION_CLOCK_TOLERANCE_SECONDS) {
    throw new DeviceProofError('iat_in_future');
  }
  const { jti } = payload;
  // The jti is stored: text PostgreSQL can keep, of a bounded length.
  if (
    typeof jti !== 'string' ||
    jti.length === 0 ||
    jti.length > JTI_MAX ||
    unstorableReason(jti)
  ) {
    throw new DeviceProofError('invalid_jti');
  }
  return { jti, acceptableUntil: new Date((exp + ASSERTION_CLOCK_TOLERANCE_SECONDS) * 1000) };
}

const CLAIM_REASONS: Record<string, string> = {
  aud: 'wrong_audience',
  iss: 'wrong_issuer',
  sub: 'wrong_subject',
  nbf: 'not_yet_valid',
};

/** jose's error, as the audit line's reason. */
function reasonFor(err: InstanceType<ReturnType<typeof joseLib>['errors']['JOSEError']>): string {
  const { claim, reason } = err as { claim?: string; reason?: string };
  switch (err.code) {
    case 'ERR_JWT_EXPIRED':
      return 'expired';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
      return 'bad_signature';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
    case 'ERR_JOSE_NOT_SUPPORTED':
      return 'alg_not_allowed';
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (reason === 'missing') return `missing_${claim ?? 'claim'}`;
      return CLAIM_REASONS[claim ?? ''] ?? `invalid_${claim ?? 'claim'}`;
    default:
      return 'malformed';
  }
}
