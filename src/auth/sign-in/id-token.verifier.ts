import { Injectable } from '@nestjs/common';
import type { FlattenedJWSInput, JWSHeaderParameters, JWTPayload, RemoteJWKSet } from 'jose';
import { Clock } from '../../common/clock/clock';
import { ErrorCode } from '../../common/errors/error-code.enum';
import { cleanAllText } from '../../common/validation/storable-text';
import { AppConfig } from '../../config/app-config';
import { reasonFor } from './id-token.reasons';
import { OidcDiscovery } from './oidc-discovery.service';
import { cannotTellYet, invalidToken, SignInRefused } from './sign-in-refusal';
import { joseLib } from '../../common/jwt/jose';

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
/** Kids remembered as absent, or as waiting for a refetch: each set at most this many. */
const MAX_REMEMBERED_KIDS = 1000;

type LocalKeys = ReturnType<typeof import('jose').createLocalJWKSet>;

/**
 * The provider's key set: jose fetches it (`reload`), we decide when, by the Clock (jose's own
 * cache age and cooldown read the system clock, which tests cannot move).
 */
interface KeySet {
  remote: RemoteJWKSet;
  local?: LocalKeys;
  /** When the set was last fetched, by the Clock (ms). */
  fetchedAt?: number;
  /** The kids of the last fetch, to tell when the provider's keys changed. */
  kids?: string;
}

/** Whether this verification fetched the key set. */
interface Attempt {
  fetched: boolean;
}

/**
 * Verifies identity-provider ID tokens with `jose`: signature against the provider's JWKS (from
 * OIDC_JWKS_URI or discovery, cached by jose), accepted issuers and audiences, `azp`, an algorithm
 * allow-list and time claims. Every failure is a SignInRefused carrying its reason. A token we
 * cannot judge yet (provider down, a kid not yet checked by a refetch while refetching is in its
 * cooldown) is a 503, never a 401; a kid a refetch has shown absent (its own token's, or one seen
 * in the cooldown before it) is a 401 until the keys change.
 */
@Injectable()
export class IdTokenVerifier {
  private keySet?: Promise<KeySet>;
  /** Kids a refetch has shown the provider does not publish; forgotten when its keys change. */
  private readonly absentKids = new Set<string>();
  /** Unknown kids seen inside the cooldown, for the next refetch to judge, whoever's it is. */
  private readonly unjudgedKids = new Set<string>();

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
    const attempt: Attempt = { fetched: false };
    let payload: JWTPayload;
    try {
      const resolve = (header: JWSHeaderParameters, token: FlattenedJWSInput) =>
        this.keyFor(keys, header, token, attempt);
      ({ payload } = await joseLib().jwtVerify(idToken, resolve, {
        issuer: this.config.oidc.issuers,
        audience: this.config.oidc.audiences,
        algorithms: ALGORITHMS,
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        maxTokenAge: MAX_TOKEN_AGE_SECONDS,
        currentDate: this.clock.now(),
        requiredClaims: ['iss', 'sub', 'aud', 'exp', 'iat'],
      }));
    } catch (err) {
      throw this.refusal(err, keys, attempt.fetched, kid);
    }
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
   * The token's key from the cached set. The set is fetched first when older than CACHE_MAX_AGE_MS,
   * and again for an unknown `kid` once OIDC_JWKS_COOLDOWN_SECONDS have passed since the last
   * fetch (a new key may have been published; strangers' made-up kids cannot make us fetch more).
   */
  private async keyFor(
    keys: KeySet,
    header: JWSHeaderParameters,
    token: FlattenedJWSInput,
    attempt: Attempt,
  ): Promise<Awaited<ReturnType<LocalKeys>>> {
    if (!keys.local || this.ageOf(keys) >= CACHE_MAX_AGE_MS) await this.fetch(keys, attempt);
    try {
      return await keys.local!(header, token);
    } catch (err) {
      if (reasonFor(err) !== 'unknown_key' || this.ageOf(keys) < this.config.oidc.jwksCooldownMs) {
        throw err;
      }
      await this.fetch(keys, attempt);
      return keys.local!(header, token);
    }
  }

  private ageOf(keys: KeySet): number {
    return this.clock.now().getTime() - (keys.fetchedAt ?? 0);
  }

  private async fetch(keys: KeySet, attempt: Attempt): Promise<void> {
    await keys.remote.reload();
    const jwks = keys.remote.jwks();
    if (!jwks) throw new Error('the key set did not load');
    keys.local = joseLib().createLocalJWKSet(jwks);
    keys.fetchedAt = this.clock.now().getTime();
    attempt.fetched = true;
    // The provider's keys changed: a kid shown absent before may exist now.
    const published = jwks.keys.map((k) => k.kid);
    const kids = JSON.stringify(published.sort());
    if (kids !== keys.kids) this.absentKids.clear();
    keys.kids = kids;
    // This fetch followed the kids seen in the cooldown: its verdict is theirs too.
    for (const kid of this.unjudgedKids) {
      if (!published.includes(kid)) remember(this.absentKids, kid);
    }
    this.unjudgedKids.clear();
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
    if (reason === 'unknown_key' && kid !== undefined && refetched) remember(this.absentKids, kid);
    if (reason === 'unknown_key' && !refetched && !(kid && this.absentKids.has(kid))) {
      // No fetch for this token: the last one is inside the cooldown. The key may
      // have been published since, so the token may be good: ask the client to come back.
      if (kid !== undefined) remember(this.unjudgedKids, kid);
      const now = this.clock.now().getTime();
      const waitMs = (keys.fetchedAt ?? now) + this.config.oidc.jwksCooldownMs - now;
      return cannotTellYet('key_refetch_cooldown', Math.max(1, Math.ceil(waitMs / 1000)), note);
    }
    return invalidToken(reason, note);
  }

  private async keys(): Promise<KeySet> {
    this.keySet ??= this.jwksUri().then((uri) => {
      // Only its fetch (reload) is used: keyFor decides when, by the Clock.
      const remote = joseLib().createRemoteJWKSet(new URL(uri), {
        timeoutDuration: FETCH_TIMEOUT_MS,
      });
      return { remote };
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

/** Adds a kid to a bounded set: a flood of invented kids forgets the oldest, never grows memory. */
function remember(kids: Set<string>, kid: string): void {
  if (kids.size >= MAX_REMEMBERED_KIDS) kids.delete(kids.values().next().value as string);
  kids.add(kid);
}
