import { HttpStatus, Injectable, Logger } from '@nestjs/common';
import type { createRemoteJWKSet, JWTPayload } from 'jose';
import { Clock } from '../common/clock/clock';
import { AppException } from '../common/errors/app.exception';
import { ErrorCode } from '../common/errors/error-code.enum';
import { AppConfig } from '../config/app-config';

/** The claims sign-in relies on, after every check has passed. */
export interface VerifiedIdentity {
  issuer: string;
  subject: string;
  email?: string;
  emailVerified: boolean;
  name?: string;
}

const ALGORITHMS = ['RS256', 'ES256'];
const CLOCK_TOLERANCE_SECONDS = 30;
/** Also makes jose refuse an `iat` in the future (found by the reliability suite: it was accepted). */
const MAX_TOKEN_AGE_SECONDS = 24 * 3600;
const FETCH_TIMEOUT_MS = 5000;
/** jose refetches the key set for an unknown `kid` at most once per this many ms. */
const REFETCH_COOLDOWN_MS = 30_000;
const CACHE_MAX_AGE_MS = 10 * 60_000;
/** jose codes that mean "the provider could not be asked", not "the token is bad". */
const UNREACHABLE_CODES = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JOSE_GENERIC']);

type KeySet = ReturnType<typeof createRemoteJWKSet>;
type Jose = typeof import('jose');

let jose: Jose | undefined;
/** Required at the first sign-in rather than at startup, where it would only cost boot time. */
function joseLib(): Jose {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded lazily, see above
  jose ??= require('jose') as Jose;
  return jose;
}

/**
 * Verifies identity-provider ID tokens with `jose`: signature against the provider's JWKS (from
 * OIDC_JWKS_URI or discovery, cached), accepted issuers and audiences, an algorithm allow-list and
 * time claims. A provider that cannot be reached answers 503; it never lets a token through.
 */
@Injectable()
export class IdTokenVerifier {
  private readonly logger = new Logger('IdToken');
  private keySet?: Promise<KeySet>;

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
  ) {}

  get configured(): boolean {
    return this.config.oidc.issuers.length > 0 && this.config.oidc.audiences.length > 0;
  }

  async verify(idToken: string): Promise<VerifiedIdentity> {
    if (!this.configured) {
      throw new AppException(
        ErrorCode.SignInNotConfigured,
        HttpStatus.SERVICE_UNAVAILABLE,
        'Sign-in is not configured on this service.',
      );
    }
    let payload: JWTPayload;
    try {
      const keys = await this.keys();
      const { payload: verified } = await joseLib().jwtVerify(idToken, keys, {
        issuer: this.config.oidc.issuers,
        audience: this.config.oidc.audiences,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        maxTokenAge: MAX_TOKEN_AGE_SECONDS,
        currentDate: this.clock.now(),
        requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat'],
      });
      payload = verified;
    } catch (err) {
      throw this.failure(err);
    }
    return {
      issuer: payload.iss as string,
      subject: payload.sub as string,
      email: typeof payload.email === 'string' ? payload.email : undefined,
      emailVerified: payload.email_verified === true,
      name: typeof payload.name === 'string' ? payload.name : undefined,
    };
  }

  private failure(err: unknown): AppException {
    const code = err instanceof joseLib().errors.JOSEError ? err.code : undefined;
    if (code === undefined || UNREACHABLE_CODES.has(code)) {
      // Only the reason, never the token: it is a credential.
      this.logger.warn(`identity provider keys unavailable: ${(err as Error).message}`);
      this.keySet = undefined; // retry discovery next time
      return new AppException(
        ErrorCode.Unavailable,
        HttpStatus.SERVICE_UNAVAILABLE,
        'The identity provider cannot be reached; try again shortly.',
        undefined,
        { 'Retry-After': '5' },
      );
    }
    return new AppException(
      ErrorCode.InvalidIdToken,
      HttpStatus.UNAUTHORIZED,
      'The ID token is not valid.',
    );
  }

  private keys(): Promise<KeySet> {
    this.keySet ??= this.jwksUri().then((uri) =>
      joseLib().createRemoteJWKSet(new URL(uri), {
        timeoutDuration: FETCH_TIMEOUT_MS,
        cooldownDuration: REFETCH_COOLDOWN_MS,
        cacheMaxAge: CACHE_MAX_AGE_MS,
      }),
    );
    return this.keySet;
  }

  /** OIDC_JWKS_URI, or the `jwks_uri` of the first issuer's discovery document. */
  private async jwksUri(): Promise<string> {
    if (this.config.oidc.jwksUri) return this.config.oidc.jwksUri;
    const issuer = this.config.oidc.issuers[0].replace(/\/+$/, '');
    const res = await fetch(`${issuer}/.well-known/openid-configuration`, {
      signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
    });
    if (!res.ok) throw new Error(`discovery answered ${res.status}`);
    const doc = (await res.json()) as { jwks_uri?: unknown };
    if (typeof doc.jwks_uri !== 'string') throw new Error('discovery has no jwks_uri');
    return doc.jwks_uri;
  }
}
