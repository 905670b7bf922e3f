import type { RefusalReason } from './sign-in-refusal';

/** jose codes that mean "the provider could not be asked", not "the token is bad". */
const UNREACHABLE_CODES = new Set(['ERR_JWKS_TIMEOUT', 'ERR_JWKS_INVALID', 'ERR_JOSE_GENERIC']);

const CLAIM_REASONS: Record<string, RefusalReason> = {
  iss: 'unknown_issuer',
  aud: 'wrong_audience',
  nbf: 'not_yet_valid',
  iat: 'not_yet_valid',
};

/** The fields of a jose error that say what failed (read by name: jose is loaded lazily). */
interface JoseErrorShape {
  code?: unknown;
  claim?: unknown;
  reason?: unknown;
}

/**
 * The refusal reason for an error thrown by jose's `jwtVerify`; `provider_unavailable` for
 * anything that is not a verdict on the token (a network error, a JWKS that would not load).
 */
export function reasonFor(err: unknown): RefusalReason {
  const { code, claim, reason } = (typeof err === 'object' && err ? err : {}) as JoseErrorShape;
  if (typeof code !== 'string' || UNREACHABLE_CODES.has(code)) return 'provider_unavailable';
  switch (code) {
    case 'ERR_JWT_EXPIRED':
      return 'expired'; // also `iat` older than the maximum token age
    case 'ERR_JWT_CLAIM_VALIDATION_FAILED':
      if (reason === 'missing') return 'missing_claim';
      if (reason === 'invalid') return 'malformed';
      return CLAIM_REASONS[String(claim)] ?? 'malformed';
    case 'ERR_JOSE_ALG_NOT_ALLOWED':
      return 'algorithm_not_allowed';
    case 'ERR_JWKS_NO_MATCHING_KEY':
      return 'unknown_key';
    case 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED':
    case 'ERR_JWKS_MULTIPLE_MATCHING_KEYS':
      return 'bad_signature';
    default:
      // ERR_JWS_INVALID, ERR_JWT_INVALID, ERR_JOSE_NOT_SUPPORTED (a `crit` header, say), ...
      return 'malformed';
  }
}
