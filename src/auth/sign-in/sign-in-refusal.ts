import { ErrorCode } from '../../common/errors/error-code.enum';
import { AuthError } from '../../common/auth/auth.error';

/** Why a sign-in was refused: the `reason` of its audit line (docs/sign-in.md, "Sign-in refusals"). */
export type RefusalReason =
  | 'not_configured'
  | 'malformed'
  | 'algorithm_not_allowed'
  | 'unknown_key'
  | 'bad_signature'
  | 'unknown_issuer'
  | 'wrong_audience'
  | 'wrong_authorized_party'
  | 'expired'
  | 'not_yet_valid'
  | 'missing_claim'
  | 'email_not_verified'
  | 'no_account'
  | 'linked_to_other_identity'
  | 'disabled'
  | 'provider_unavailable'
  | 'key_refetch_cooldown';

/** An expected sign-in failure: the client's answer plus the reason only the log is told. */
export class SignInRefused extends AuthError {
  constructor(
    readonly reason: RefusalReason,
    code: ErrorCode,
    detail: string,
    headers?: Record<string, string>,
    /** What the library said (never the token), for the operator reading the audit line. */
    readonly note?: string,
  ) {
    super(code, detail, undefined, headers);
  }
}

/** 401 `invalid_id_token`: one answer for every way a token can be bad. */
export const invalidToken = (reason: RefusalReason, note?: string): SignInRefused =>
  new SignInRefused(
    reason,
    ErrorCode.InvalidIdToken,
    'The ID token is not valid.',
    undefined,
    note,
  );

/** 503 `unavailable` with Retry-After: the token may be good, we cannot tell yet. */
export const cannotTellYet = (
  reason: RefusalReason,
  retryAfterSeconds: number,
  note?: string,
): SignInRefused =>
  new SignInRefused(
    reason,
    ErrorCode.Unavailable,
    reason === 'key_refetch_cooldown'
      ? 'The token is signed with a key the identity provider has just published; try again shortly.'
      : 'The identity provider cannot be reached; try again shortly.',
    { 'Retry-After': String(retryAfterSeconds) },
    note,
  );
