import { Injectable } from '@nestjs/common';
import type { JWTPayload, RemoteJWKSet } from 'jose';
import { Clock } from '../common/clock/clock';
import { ErrorCode } from '../common/errors/error-code.enum';
import { cleanAllText } from '../common/validation/storable-text';
import { AppConfig } from '../config/app-config';
import { reasonFor } from './id-token.reasons';
import { OidcDiscovery } from './oidc-discovery.service';
import { cannotTellYet, invalidToken, SignInRefused } from './sign-in-refusal';
import { joseLib } from '../common/jwt/jose';

/** The claims sign-in relies on, after every check has passed. */
export interface VerifiedIdentity {
  /** The canonical spelling (the first of OIDC_ISSUER), whichever one the token used. */
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
const CACHE_MAX_AGE_MS = 10 * 60_000;
const UNREACHABLE_RETRY_AFTER_SECONDS = 5;
/** Kids remembered as absent; a flood of invented kids forgets the oldest, never grows memory. */
const MAX_ABSENT_KIDS = 1000;

/**
 * jose's resolver; the cache record jose stamps (`uat`) after each successful fetch; and when, by
 * the Clock, we first saw the current stamp (jose stamps with its own clock, so it is not compared
 * with ours, only watched for change).
 */
interface KeySet {
  resolve: RemoteJWKSet;
  cache: { uat?: number; jwks?: { keys?: { kid?: unknown }[] } };
  seenStamp?: number;
  fetchedAt?: number;
  /** The kids of the last fetch, to tell when the provider's keys changed. */
  kids?: string;
}

/**
 * Verifies identity-provider ID tokens with `jose`: signature against the provider's JWKS (from
 * OIDC_JWKS_URI or discovery, cached by jose), accepted issuers and audiences, `azp`, an algorithm
 * allow-list and time claims. Every failure is a SignInRefused carrying its reason. A token we
 * cannot judge yet (provider down, a kid not yet checked by a refetch while refetching is in its
 * cooldown) is a 503, never a 401; a kid a refetch has shown absent is a 401 until the keys change.
 */
@Injectable()
export class IdTokenVerifier {
  private keySet?: Promise<KeySet>;
  /** Kids a refetch has shown the provider does not publish; forgotten when its keys change. */
  private readonly absentKids = new Set<string>();

  constructor(
    private readonly config: AppConfig,
    private readonly clock: Clock,
    private readonly discovery: OidcDiscovery,
  ) {}

  get configured(): boolean {
    return this.config.oidc.issuers.length > 0 && this.config.oidc.audiences.length > 0;
  }

  async verify(idToken: string): Promise<VerifiedIdentity> {
    if (!this.configured) {
      throw new SignInRefused(
        'not_configured',
        ErrorCode.SignInNotConfigured,
        'Sign-in is not configured on this service.',
      );
    }
    // Issuer, audience and shape first: a token that cannot be ours costs no key lookup.
    const kid = this.precheck(idToken);
    const keys = await this.keys();
    let payload: JWTPayload;
    try {
      ({ payload } = await joseLib().jwtVerify(idToken, keys.resolve, {
        issuer: this.config.oidc.issuers,
        audience: this.config.oidc.audiences,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        maxTokenAge: MAX_TOKEN_AGE_SECONDS,
        currentDate: this.clock.now(),
        requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat'],
      }));
    } catch (err) {
      throw this.refusal(err, keys, this.noteFetch(keys), kid);
    }
    this.noteFetch(keys);
    this.checkAuthorizedParty(payload);
    // Claims are the provider's signed word, stored as they come: cleaned, not refused.
    return cleanAllText({
      issuer: this.config.oidc.issuers[0],
      subject: payload.sub as string,
      email: typeof payload.email === 'string' ? payload.email : undefined,
      // Some providers send the string "true".
      emailVerified: payload.email_verified === true || payload.email_verified === 'true',
      name: typeof payload.name === 'string' ? payload.name : undefined,
    });
  }

  /**
   * The checks that need no key, on the token as sent: a compact JWS whose header names an allowed
   * algorithm, whose `iss` is accepted and whose `aud` names one of ours. Returns its `kid`.
   */
  private precheck(idToken: string): string | undefined {
    const { decodeJwt, decodeProtectedHeader } = joseLib();
    let header: ReturnType<typeof decodeProtectedHeader>;
    let claims: JWTPayload;
    try {
      header = decodeProtectedHeader(idToken);
      claims = decodeJwt(idToken);
    } catch (err) {
      throw invalidToken('malformed', err instanceof Error ? err.message : String(err));
    }
    if (typeof header.alg !== 'string' || !ALGORITHMS.includes(header.alg)) {
      throw invalidToken('algorithm_not_allowed', `alg ${String(header.alg)}`);
    }
    const { issuers, audiences } = this.config.oidc;
    if (typeof claims.iss !== 'string' || !issuers.includes(claims.iss)) {
      throw invalidToken('unknown_issuer', 'iss is not an accepted issuer');
    }
    const aud = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
    if (!aud.some((a) => typeof a === 'string' && audiences.includes(a))) {
      throw invalidToken('wrong_audience', 'aud names none of the accepted audiences');
    }
    return typeof header.kid === 'string' ? header.kid : undefined;
  }

  /** OIDC Core 3.1.3.7: with several audiences, the party the token was issued to must be ours. */
  private checkAuthorizedParty(payload: JWTPayload): void {
    if (!Array.isArray(payload.aud) || payload.aud.length < 2) return;
    const azp = payload.azp;
    if (typeof azp !== 'string' || !this.config.oidc.audiences.includes(azp)) {
      throw invalidToken('wrong_authorized_party', 'several audiences and no accepted azp');
    }
  }

  /**
   * Whether jose fetched the key set during this verification; records when, by the Clock, and
   * forgets the absent kids when the provider's keys changed.
   */
  private noteFetch(keys: KeySet): boolean {
    if (keys.cache.uat === keys.seenStamp) return false;
    keys.seenStamp = keys.cache.uat;
    keys.fetchedAt = this.clock.now().getTime();
    const kids = JSON.stringify((keys.cache.jwks?.keys ?? []).map((k) => k.kid).sort());
    if (kids !== keys.kids) this.absentKids.clear();
    keys.kids = kids;
    return true;
  }

  private refusal(
    err: unknown,
    keys: KeySet,
    refetched: boolean,
    kid: string | undefined,
  ): SignInRefused {
    const reason = reasonFor(err);
    const note = err instanceof Error ? err.message : String(err);
    if (reason === 'provider_unavailable') {
      return cannotTellYet(reason, UNREACHABLE_RETRY_AFTER_SECONDS, note);
    }
    if (reason === 'unknown_key' && kid !== undefined && refetched) this.rememberAbsent(kid);
    if (reason === 'unknown_key' && !refetched && !(kid && this.absentKids.has(kid))) {
      // jose did not refetch for this token: the last fetch is inside the cooldown. The key may
      // have been published since, so the token may be good: ask the client to come back.
      const now = this.clock.now().getTime();
      const waitMs = (keys.fetchedAt ?? now) + this.config.oidc.jwksCooldownMs - now;
      return cannotTellYet('key_refetch_cooldown', Math.max(1, Math.ceil(waitMs / 1000)), note);
    }
    return invalidToken(reason, note);
  }

  private rememberAbsent(kid: string): void {
    if (this.absentKids.size >= MAX_ABSENT_KIDS) {
      this.absentKids.delete(this.absentKids.values().next().value as string);
    }
    this.absentKids.add(kid);
  }

  private async keys(): Promise<KeySet> {
    this.keySet ??= this.jwksUri().then((uri) => {
      const { createRemoteJWKSet, jwksCache } = joseLib();
      const cache = {};
      const resolve = createRemoteJWKSet(new URL(uri), {
        timeoutDuration: FETCH_TIMEOUT_MS,
        cooldownDuration: this.config.oidc.jwksCooldownMs,
        cacheMaxAge: CACHE_MAX_AGE_MS,
        [jwksCache]: cache,
      });
      return { resolve, cache };
    });
    try {
      return await this.keySet;
    } catch (err) {
      this.keySet = undefined; // discovery failed: try it again next time
      const note = err instanceof Error ? err.message : String(err);
      throw cannotTellYet('provider_unavailable', UNREACHABLE_RETRY_AFTER_SECONDS, note);
    }
  }

  /** OIDC_JWKS_URI, or the `jwks_uri` of the provider's discovery document. */
  private async jwksUri(): Promise<string> {
    if (this.config.oidc.jwksUri) return this.config.oidc.jwksUri;
    const doc = await this.discovery.document();
    if (typeof doc.jwks_uri !== 'string') throw new Error('discovery has no jwks_uri');
    return doc.jwks_uri;
  }
}
