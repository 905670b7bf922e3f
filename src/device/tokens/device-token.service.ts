import { createHash, randomUUID, timingSafeEqual } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectRepository } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { statementRows } from '../../database/statement-rows';
import { Clock } from '../../common/clock/clock';
import { DeviceError } from '../device.error';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { FailedAttempts } from '../../common/throttling/failed-attempts';
import { AppConfig } from '../../config/app-config';
import { DeviceAssertionVerifier, DeviceProofError } from './device-assertion.verifier';
import { DeviceAudit } from '../device-audit';
import { DeviceAuthDto } from './device-auth.dto';
import { DeviceJtiStore } from './device-jti.store';
import { DEVICE_CLAIM_SQL } from './device-token.sql';
import { DevicePresence } from '../liveness/device-presence.service';
import { Device } from '../device.entity';
import { isCanonicalDeviceId } from '../device.rules';
import { signDeviceToken } from './device-token.jwt';
import { DeviceTokenEvents } from './device-token-events.service';

/** Compared against when no device was found, so every refusal costs the same work. */
const NO_DEVICE = { model: '\u0000no-device', provider: '\u0000no-device', status: 'deactivated' };
/** Looked up instead of a non-canonical id: same query, can never match, never a driver error. */
const NEVER_REGISTERED = '#';

type ClaimRow = Pick<
  Device,
  | 'id'
  | 'deviceId'
  | 'orgId'
  | 'model'
  | 'provider'
  | 'status'
  | 'publicKey'
  | 'publicKeyThumbprint'
>;

/** The check's verdict: the reason when refused; else the key's thumbprint when it was proved. */
type Verdict = { refused: string } | { device: ClaimRow; proved: string | null };
/** The identity check's verdict: a device with a key still has its assertion to prove. */
type IdentityVerdict = Verdict | { prove: Proof };
/** What a device with a key must prove: its assertion, signed with that key. */
interface Proof {
  device: ClaimRow;
  assertion: string;
  key: NonNullable<ClaimRow['publicKey']>;
  thumbprint: string;
}

/** A signed device token and when it ends. */
export interface IssuedDeviceToken {
  token: string;
  ttlSeconds: number;
  expiresAt: Date;
}

/**
 * Exchanges a registered device's identity (and, for a device with a key, its signed assertion)
 * for a short-lived bearer token (device-token.jwt.ts). The `device-jwt` strategy verifies them.
 */
@Injectable()
export class DeviceTokenService {
  constructor(
    @InjectRepository(Device) private readonly devices: Repository<Device>,
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly assertions: DeviceAssertionVerifier,
    private readonly jtis: DeviceJtiStore,
    private readonly failures: FailedAttempts,
    private readonly audit: DeviceAudit,
    private readonly presence: DevicePresence,
    private readonly tokenEvents: DeviceTokenEvents,
  ) {}

  /**
   * The per-device_id limit counts failures only, per source address and (far higher) from all
   * addresses; a device that proved its key is never refused by it, a device without a key is,
   * while the limit holds (docs/devices.md). `address` is the client's, for that count.
   */
  async issue(claim: DeviceAuthDto, address?: string): Promise<IssuedDeviceToken> {
    const deviceId = isCanonicalDeviceId(claim.device_id) ? claim.device_id : NEVER_REGISTERED;
    const rows = await statementRows<ClaimRow>(this.devices.manager, DEVICE_CLAIM_SQL, [deviceId]);
    const identity = this.checkIdentity(rows[0] ?? null, claim);
    // Only a device with a key waits on anything more (its assertion, its jti).
    const verdict = 'prove' in identity ? await this.prove(identity.prove) : identity;
    if ('refused' in verdict) {
      this.audit.tokenRefused(claim.device_id, verdict.refused);
      await this.failures.recordFailure('deviceAuthPerMinute', claim.device_id, address);
      throw new DeviceError(
        ErrorCode.InvalidDevice,
        'The device is not registered, not active, or does not match its registration.',
      );
    }
    if (verdict.proved === null) {
      // Answered at once while the counters are in memory; a promise only from Redis.
      const blocked = this.failures.assertNotBlocked(
        'deviceAuthPerMinute',
        claim.device_id,
        address,
      );
      if (blocked) await blocked;
    }
    const issued = this.sign(verdict.device, verdict.proved);
    await this.presence.contact(verdict.device.id); // a contact (docs/devices.md, "Liveness")
    await this.tokenEvents.tokenIssued(verdict.device.deviceId); // a shipped device's activation
    return issued;
  }

  /** The identity check, and a device without a key's whole verdict. */
  private checkIdentity(device: ClaimRow | null, claim: DeviceAuthDto): IdentityVerdict {
    if (!credentialsMatch(device, claim) || !device) return { refused: mismatchOf(device) };
    const { publicKey: key, publicKeyThumbprint: thumbprint } = device;
    if (!key || !thumbprint) {
      if (claim.assertion !== undefined) return { refused: 'no_key_registered' };
      if (this.config.deviceToken.requireProof) return { refused: 'proof_required' };
      return { device, proved: null };
    }
    if (claim.assertion === undefined) return { refused: 'assertion_missing' };
    return { prove: { device, assertion: claim.assertion, key, thumbprint } };
  }

  /** A device with a key: its assertion, and a jti used once. */
  private async prove({ device, assertion, key, thumbprint }: Proof): Promise<Verdict> {
    try {
      const { jti, acceptableUntil } = await this.assertions.verify(
        assertion,
        device.deviceId,
        key,
      );
      if (!(await this.jtis.consume(device.id, jti, acceptableUntil)))
        return { refused: 'replayed' };
    } catch (err) {
      if (err instanceof DeviceProofError) return { refused: err.reason };
      throw err;
    }
    return { device, proved: thumbprint };
  }

  private sign(device: ClaimRow, jkt: string | null): IssuedDeviceToken {
    const ttl = this.config.deviceToken.ttlSeconds;
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const token = signDeviceToken(
      {
        deviceId: device.deviceId,
        orgId: device.orgId,
        jkt,
        jti: randomUUID(),
        issuedAt: now,
        expiresAt: now + ttl,
      },
      this.config.deviceToken.secret,
    );
    return { token, ttlSeconds: ttl, expiresAt: new Date((now + ttl) * 1000) };
  }
}

/** The audit reason of a failed identity check (worked out after the constant-time check). */
function mismatchOf(device: Pick<Device, 'status'> | null): string {
  if (!device) return 'unknown_device';
  return device.status === 'active' ? 'model_or_provider_mismatch' : 'deactivated';
}

/**
 * True only for a found, active device whose model and provider both match. One constant-time
 * comparison of two SHA-256 digests, each over the three fields as one unambiguous text (a JSON
 * array of strings), whatever the outcome, so the answer's timing does not say which field was
 * wrong. It was three comparisons of six digests; the outcome and its timing are the same.
 */
export function credentialsMatch(
  device: Pick<Device, 'model' | 'provider' | 'status'> | null,
  claim: Pick<DeviceAuthDto, 'model' | 'provider'>,
): boolean {
  const stored = device ?? NO_DEVICE;
  const same = timingSafeEqual(
    identityDigest(stored.model, stored.provider, stored.status),
    identityDigest(claim.model, claim.provider, 'active'),
  );
  return device !== null && same;
}

/** Equal-length digests, so timingSafeEqual compares without revealing lengths or prefixes. */
function identityDigest(model: string, provider: string, status: string): Buffer {
  return createHash('sha256')
    .update(JSON.stringify([model, provider, status]), 'utf8')
    .digest();
}
